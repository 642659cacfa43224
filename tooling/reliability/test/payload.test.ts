import { describe, expect, it } from "vitest";
import { acksOf, errorsOf } from "../src/support/acks.js";
import { parsePayload, payloadText } from "../src/support/payload.js";
import { Random } from "../src/support/random.js";

describe("payloads", () => {
	it("a payload reads back as its tag and number", () => {
		expect(parsePayload(payloadText("c7", 42, 10))).toEqual({ tag: "c7", n: 42 });
	});

	it("a payload with any character changed fails its checksum", () => {
		const text = payloadText("c7", 42, 3);
		for (let i = 0; i < text.length; i++) {
			const changed = `${text.slice(0, i)}${text[i] === "y" ? "z" : "y"}${text.slice(i + 1)}`;
			expect(parsePayload(changed)).toBeUndefined();
		}
	});
});

describe("child lines", () => {
	it("acks and errors are read from a child's lines", () => {
		const lines = ["ready 12", "ack 0 5 3", "ack 1 9 4", 'error STORAGE_FAILURE "disk full"', "done"];
		expect(acksOf(lines)).toEqual([
			{ session: 0, seq: 5, n: 3 },
			{ session: 1, seq: 9, n: 4 },
		]);
		expect(errorsOf(lines)).toEqual([{ code: "STORAGE_FAILURE", message: "disk full" }]);
	});
});

describe("the seeded generator", () => {
	it("one seed gives one sequence", () => {
		const a = new Random(99);
		const b = new Random(99);
		expect(Array.from({ length: 5 }, () => a.int(0, 1000))).toEqual(Array.from({ length: 5 }, () => b.int(0, 1000)));
	});
});
