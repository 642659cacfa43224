import { describe, expect, it } from "vitest";
import { InvalidRecordError } from "./errors.js";
import { isIsoTimestamp, validateRecordInput } from "./validate.js";

const FILL = { seq: 7, timestamp: "2025-02-11T10:00:07.000Z" };
const message = { recordType: "message", role: "user", content: [{ type: "text", text: "hi" }] };

function rejection(input: unknown, index?: number): InvalidRecordError {
	try {
		validateRecordInput(input, FILL, index);
	} catch (error) {
		if (error instanceof InvalidRecordError) return error;
		throw error;
	}
	throw new Error("validateRecordInput accepted the input");
}

describe("validateRecordInput fills seq, schemaVersion and timestamp", () => {
	it("fills all three when they are absent", () => {
		expect(validateRecordInput(message, FILL)).toStrictEqual({
			...message,
			schemaVersion: 1,
			seq: 7,
			timestamp: FILL.timestamp,
		});
	});

	it("keeps a valid ISO timestamp, a matching seq and schemaVersion 1 given by the caller", () => {
		const record = validateRecordInput(
			{ ...message, seq: 7, schemaVersion: 1, timestamp: "2024-12-31T23:59:59+02:00" },
			FILL,
		);
		expect(record).toMatchObject({ seq: 7, schemaVersion: 1, timestamp: "2024-12-31T23:59:59+02:00" });
	});

	it("fills schema defaults (usage cache counts, custom_message display)", () => {
		const record = validateRecordInput(
			{ recordType: "custom_message", customType: "note", content: [{ type: "text", text: "n" }] },
			FILL,
		);
		expect(record).toMatchObject({ display: true });
	});

	it("drops fields the schema does not know", () => {
		expect(validateRecordInput({ ...message, extra: 1 }, FILL)).not.toHaveProperty("extra");
	});
});

describe("validateRecordInput rejects bad input with the field path and the batch index", () => {
	it.each([
		["a seq other than the next one", { ...message, seq: 3 }, "seq"],
		["a schemaVersion other than the current one", { ...message, schemaVersion: 2 }, "schemaVersion"],
		["a legacy schemaVersion 0", { ...message, schemaVersion: 0 }, "schemaVersion"],
		["a timestamp that is not ISO 8601", { ...message, timestamp: "yesterday" }, "timestamp"],
		["a timestamp without a zone", { ...message, timestamp: "2025-02-11T10:00:00" }, "timestamp"],
		["a timestamp of an impossible date", { ...message, timestamp: "2025-02-30T10:00:00Z" }, "timestamp"],
		["a number timestamp", { ...message, timestamp: 1739268000000 }, "timestamp"],
		["an unknown recordType", { ...message, recordType: "hologram" }, "recordType"],
		["an opaque record", { ...message, recordType: "opaque" }, "recordType"],
		["bare-string content (S7.12)", { ...message, content: "hi" }, "content"],
		["a parentSeq equal to the seq being written", { ...message, parentSeq: 7 }, "parentSeq"],
		["a schema violation deep in the record", { ...message, content: [{ type: "text", text: 1 }] }, "content.0.text"],
		["a missing required field", { recordType: "compaction", summary: "s" }, "firstKeptSeq"],
	])("rejects %s", (_what, input, path) => {
		const error = rejection(input, 2);
		expect(error.code).toBe("INVALID_RECORD");
		expect(error.path).toBe(path);
		expect(error.index).toBe(2);
		expect(error.message).toMatch(/^@agent\/session-format: /);
		expect(error.message).toContain("(record 3 of the batch)");
	});

	it.each([
		["null", null],
		["an array", [message]],
		["a string", "message"],
	])("rejects %s as not an object", (_what, input) => {
		expect(rejection(input).message).toMatch(/a record must be a JSON object/);
	});

	it("says nothing about a batch when no index is given", () => {
		const error = rejection({ ...message, seq: 1 });
		expect(error.index).toBeUndefined();
		expect(error.message).not.toContain("of the batch");
		expect(error.message).toContain("omit seq and the store assigns it");
	});

	it("chains the zod error as the cause of a schema violation", () => {
		expect(rejection({ ...message, role: "system" }).cause).toBeDefined();
	});

	it("rejects nesting deeper than the limit instead of writing a line no reader takes", () => {
		let deep: unknown = 1;
		for (let i = 0; i < 600; i++) deep = [deep];
		expect(rejection({ ...message, details: deep }).path).toBe("details");
	});
});

describe("isIsoTimestamp", () => {
	it.each(["2025-02-11T10:00:00Z", "2025-02-11T10:00Z", "2025-02-11T10:00:00.123456Z", "2025-02-11T10:00:00-05:30"])(
		"accepts %s",
		(value) => expect(isIsoTimestamp(value)).toBe(true),
	);

	it.each(["", "2025-02-11", "2025-02-11 10:00:00Z", "2025-13-01T00:00:00Z", "10:00", " 2025-02-11T10:00:00Z"])(
		"rejects %j",
		(value) => expect(isIsoTimestamp(value)).toBe(false),
	);
});
