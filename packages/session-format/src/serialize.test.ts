import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRecordLine } from "./parse.js";
import { RECORD_TYPES } from "./record-kinds.js";
import { recordLine, serializeRecord } from "./serialize.js";
import { anyRecord, recordOf } from "./test-arbitraries.js";
import { user } from "./test-builders.js";

describe("serializeRecord / parseRecordLine round trip", () => {
	for (const type of RECORD_TYPES) {
		it(`parse(serialize(r)) deep-equals r for arbitrary ${type} records`, () => {
			fc.assert(
				fc.property(recordOf(type), (record) => {
					const parsed = parseRecordLine(serializeRecord(record));
					expect(parsed).toStrictEqual({ ok: true, record });
				}),
				{ numRuns: 200 },
			);
		});
	}

	it("serializing any record yields exactly one line: no raw LF, CR, U+0085, U+2028 or U+2029", () => {
		fc.assert(
			fc.property(anyRecord, (record) => {
				const line = recordLine(record);
				expect(line.endsWith("\n")).toBe(true);
				expect(line.slice(0, -1)).not.toMatch(/[\n\r\u0085\u2028\u2029]/);
			}),
			{ numRuns: 500 },
		);
	});

	it("escapes U+2028 and U+2029 in strings and reads them back unchanged", () => {
		const record = user(1, "a\u2028b\u2029c\u0085d\ne");
		const line = serializeRecord(record);
		expect(line).toContain("a\\u2028b\\u2029c\\u0085d\\ne");
		expect(parseRecordLine(line)).toStrictEqual({ ok: true, record });
	});
});
