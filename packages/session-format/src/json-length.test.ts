import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonLength } from "./json-length.js";

// Any UTF-16 code unit, lone surrogates and control characters included.
const anyText = fc
	.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 })
	.map((units) => String.fromCharCode(...units));
const value = fc.letrec((tie) => ({
	value: fc.oneof(
		{ depthSize: "small" },
		anyText,
		fc.double(),
		fc.integer(),
		fc.boolean(),
		fc.constant(null),
		fc.constant(undefined),
		fc.array(tie("value"), { maxLength: 4 }),
		fc.dictionary(anyText, tie("value"), { maxKeys: 4 }),
	),
})).value;

describe("jsonLength", () => {
	it("is JSON.stringify(value).length for any JSON-like value (escapes, surrogates, -0, NaN, undefined members)", () => {
		fc.assert(
			fc.property(fc.dictionary(anyText, value, { maxKeys: 5 }), (args) => {
				expect(jsonLength(args)).toBe(JSON.stringify(args).length);
			}),
			{ numRuns: 2000 },
		);
	});

	it("stringifies what is not plain data (toJSON, class instances) as JSON.stringify does", () => {
		const args = { when: new Date(0), custom: { toJSON: () => "xyz" }, list: [1, undefined, () => 1] };
		expect(jsonLength(args)).toBe(JSON.stringify(args).length);
	});
});
