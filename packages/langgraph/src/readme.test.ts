// The README's example, run against the built package as a user would import it.
import { describe, expect, it } from "vitest";
import { runReadmeExample } from "../../../tooling/readme-example.js";

describe("README.md", () => {
	it("the example runs and prints what the README shows", () => {
		const { printed, expected } = runReadmeExample(new URL("..", import.meta.url));
		expect(printed).toBe(expected);
	});
});
