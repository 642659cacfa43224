// The README examples, this package's and the repository's, run against the build as a user would
// import it: type-checked in strict mode, offline (a temporary AGENT_HOME, no API key).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runReadmeExample } from "../../../tooling/readme-example.js";

const PACKAGE = new URL("..", import.meta.url);
const ROOT_README = fileURLToPath(new URL("../../../README.md", import.meta.url));

describe("README.md", () => {
	it("the example runs and prints what the README shows", () => {
		const { printed, expected } = runReadmeExample(PACKAGE);
		expect(printed).toBe(expected);
	});
});

describe("the repository's README.md", () => {
	it.each(["runtime", "tool", "own-loop"])("the %s example runs offline and prints what the README shows", (name) => {
		const { printed, expected } = runReadmeExample(PACKAGE, { readme: ROOT_README, name });
		expect(printed).toBe(expected);
	});
});
