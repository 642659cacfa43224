import { describe, expect, it } from "vitest";
import { InvalidRecordError } from "./errors.js";
import { LEGACY_TOOL_NAMES, migrateRecord } from "./migrate.js";

describe("the upgrade chain (0 = legacy pre-spec, 1 = current)", () => {
	it("upgrades version 0 to 1: bare-string content becomes one text block, schemaVersion becomes 1", () => {
		expect(migrateRecord({ recordType: "message", seq: 1, content: "hi" }, 0)).toEqual({
			recordType: "message",
			seq: 1,
			schemaVersion: 1,
			content: [{ type: "text", text: "hi" }],
		});
	});

	it("renames the legacy tool names read_file, write_file, list_directory in tool calls and tool results", () => {
		expect(LEGACY_TOOL_NAMES).toEqual({ read_file: "read", write_file: "write", list_directory: "ls" });
		const upgraded = migrateRecord(
			{ toolName: "write_file", content: [{ type: "toolCall", id: "1", name: "list_directory", arguments: {} }] },
			0,
		);
		expect(upgraded).toMatchObject({ toolName: "write", content: [{ name: "ls" }] });
	});

	it("works on a copy: the object read from the line is never changed", () => {
		const original = { content: "hi", toolName: "read_file" };
		migrateRecord(original, 0);
		expect(original).toEqual({ content: "hi", toolName: "read_file" });
	});

	it("leaves a current record as it is", () => {
		const record = { schemaVersion: 1, content: "hi" };
		expect(migrateRecord(record, 1)).toBe(record);
	});

	it("a version without an upgrader is an INVALID_RECORD error", () => {
		expect(() => migrateRecord({}, -1)).toThrow(InvalidRecordError);
	});
});
