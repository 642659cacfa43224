import { describe, expect, it } from "vitest";
import { MAX_NESTING_DEPTH } from "./limits.js";
import { parseRecordLine, parseRecordValue } from "./parse.js";
import type { LineProblem, ParsedLine } from "./parse-line.js";
import type { StoredRecord } from "./records.js";
import { serializeRecord } from "./serialize.js";

const HEAD = '"schemaVersion":1,"seq":3,"timestamp":"2025-02-11T10:00:00Z"';

function problemOf(parsed: ParsedLine): LineProblem {
	if (parsed.ok) throw new Error(`expected a problem, got a ${parsed.record.recordType} record`);
	return parsed.problem;
}

function recordOf(parsed: ParsedLine): StoredRecord {
	if (!parsed.ok) throw new Error(`expected a record, got ${parsed.problem.code}: ${parsed.problem.message}`);
	return parsed.record;
}

describe("parseRecordLine: lines that are not records", () => {
	it("invalid JSON is INVALID_JSON with the parser's reason", () => {
		const problem = problemOf(parseRecordLine('{"recordType":"message",'));
		expect(problem.code).toBe("INVALID_JSON");
		expect(problem.message).toMatch(/^not valid JSON \(.+\)$/);
	});

	it.each([
		["an array", "[1,2]"],
		["a string", '"hello"'],
		["a number", "42"],
		["null", "null"],
	])("a JSON value that is not an object (%s) is NOT_AN_OBJECT", (_what, line) => {
		expect(problemOf(parseRecordLine(line)).code).toBe("NOT_AN_OBJECT");
	});

	it.each([
		["absent", `{${HEAD},"role":"user","content":[]}`],
		["empty", `{"recordType":"",${HEAD}}`],
		["not a string", `{"recordType":7,${HEAD}}`],
	])("a missing recordType (%s) is MISSING_RECORD_TYPE", (_what, line) => {
		expect(problemOf(parseRecordLine(line)).code).toBe("MISSING_RECORD_TYPE");
	});

	it.each([
		["absent", '{"recordType":"message","schemaVersion":1}'],
		["zero", '{"recordType":"message","schemaVersion":1,"seq":0}'],
		["negative", '{"recordType":"message","schemaVersion":1,"seq":-4}'],
		["fractional", '{"recordType":"message","schemaVersion":1,"seq":1.5}'],
		["a string", '{"recordType":"message","schemaVersion":1,"seq":"3"}'],
	])("a bad seq (%s) is INVALID_SEQ at path seq", (_what, line) => {
		const problem = problemOf(parseRecordLine(line));
		expect(problem).toMatchObject({ code: "INVALID_SEQ", path: "seq" });
	});

	it("a bad seq is INVALID_SEQ even on a line of an unknown type or a newer version", () => {
		expect(problemOf(parseRecordLine('{"recordType":"future","schemaVersion":9,"seq":0}')).code).toBe("INVALID_SEQ");
	});

	it.each([
		["negative", "-1"],
		["fractional", "0.5"],
		["a string", '"1"'],
		["null", "null"],
	])("a bad schemaVersion (%s) is SCHEMA_VIOLATION at path schemaVersion", (_what, version) => {
		const problem = problemOf(parseRecordLine(`{"recordType":"message","schemaVersion":${version},"seq":1}`));
		expect(problem).toMatchObject({ code: "SCHEMA_VIOLATION", path: "schemaVersion" });
	});

	it("a schema violation names the field path of the first bad field", () => {
		const line = `{"recordType":"message",${HEAD},"role":"user","content":[{"type":"text","text":"ok"},{"type":"text","text":5}]}`;
		const problem = problemOf(parseRecordLine(line));
		expect(problem).toMatchObject({ code: "SCHEMA_VIOLATION", path: "content.1.text" });
		expect(problem.message).toMatch(/^content\.1\.text: /);
	});

	it("a schema violation in a nested field of a compaction names its path", () => {
		const line = `{"recordType":"compaction",${HEAD},"firstKeptSeq":2,"summary":"s","tokensBefore":1,"readFiles":["a",3],"modifiedFiles":[]}`;
		expect(problemOf(parseRecordLine(line))).toMatchObject({ code: "SCHEMA_VIOLATION", path: "readFiles.1" });
	});

	it("an unknown role is a SCHEMA_VIOLATION at path role", () => {
		const line = `{"recordType":"message",${HEAD},"role":"system","content":[]}`;
		expect(problemOf(parseRecordLine(line))).toMatchObject({ code: "SCHEMA_VIOLATION", path: "role" });
	});
});

describe("parseRecordLine: the tree rule", () => {
	it.each([
		["equal to seq", 3],
		["after seq", 9],
	])("parentSeq %s is rejected (a parent is always an earlier record)", (_what, parentSeq) => {
		const line = `{"recordType":"message",${HEAD},"parentSeq":${parentSeq},"role":"user","content":[]}`;
		expect(problemOf(parseRecordLine(line))).toMatchObject({ code: "SCHEMA_VIOLATION", path: "parentSeq" });
	});

	it("parentSeq >= seq is rejected on opaque lines too, so no tree ever has a cycle", () => {
		const line = '{"recordType":"future","schemaVersion":1,"seq":3,"parentSeq":3}';
		expect(problemOf(parseRecordLine(line))).toMatchObject({ code: "SCHEMA_VIOLATION", path: "parentSeq" });
	});

	it.each([
		["zero", "0"],
		["fractional", "1.5"],
		["a string", '"1"'],
	])("parentSeq %s is rejected", (_what, parentSeq) => {
		const line = `{"recordType":"message",${HEAD},"parentSeq":${parentSeq},"role":"user","content":[]}`;
		expect(problemOf(parseRecordLine(line))).toMatchObject({ code: "SCHEMA_VIOLATION", path: "parentSeq" });
	});

	it("parentSeq null (a new root) and an earlier seq are kept as written", () => {
		const root = recordOf(
			parseRecordLine(`{"recordType":"message",${HEAD},"parentSeq":null,"role":"user","content":[]}`),
		);
		const branch = recordOf(
			parseRecordLine(`{"recordType":"message",${HEAD},"parentSeq":1,"role":"user","content":[]}`),
		);
		const linear = recordOf(parseRecordLine(`{"recordType":"message",${HEAD},"role":"user","content":[]}`));
		expect(root.parentSeq).toBeNull();
		expect(branch.parentSeq).toBe(1);
		expect("parentSeq" in linear).toBe(false);
	});
});

describe("parseRecordLine: records it does not understand are kept opaque", () => {
	const unknownType = '{"recordType":"hologram","schemaVersion":1,"seq":5,"timestamp":"t","z":2,"10":1,"a":1.50}';
	const newerVersion =
		'{"recordType":"message","schemaVersion":2,"seq":6,"parentSeq":2,"timestamp":"t","content":"anything goes in v2"}';

	it("an unknown recordType is opaque, with its declared type and the reason", () => {
		const record = recordOf(parseRecordLine(unknownType));
		expect(record).toMatchObject({
			recordType: "opaque",
			seq: 5,
			schemaVersion: 1,
			declaredType: "hologram",
			reason: 'unknown recordType "hologram"',
		});
	});

	it("a newer schemaVersion is opaque, keeps its parentSeq, and is never checked against v1 rules", () => {
		const record = recordOf(parseRecordLine(newerVersion));
		expect(record).toMatchObject({ recordType: "opaque", seq: 6, parentSeq: 2, schemaVersion: 2 });
		expect(record.recordType === "opaque" && record.reason).toBe("schemaVersion 2 is newer than 1");
	});

	it("an opaque line is re-serialized unchanged, byte for byte", () => {
		for (const line of [unknownType, newerVersion, ` ${unknownType}\r`]) {
			expect(serializeRecord(recordOf(parseRecordLine(line)))).toBe(line.trim());
		}
	});

	it("an opaque record renumbered (as a fork does) is re-serialized with its new seq and parentSeq", () => {
		const record = recordOf(parseRecordLine(newerVersion));
		const moved = { ...record, seq: 3, parentSeq: null };
		expect(JSON.parse(serializeRecord(moved))).toEqual({ ...JSON.parse(newerVersion), seq: 3, parentSeq: null });
	});

	it("parseRecordValue keeps an opaque object whose serialization holds all of its fields", () => {
		const value = JSON.parse(unknownType);
		const record = recordOf(parseRecordValue(value));
		expect(JSON.parse(serializeRecord(record))).toEqual(value);
	});
});

describe("parseRecordLine: S7.12 content is always ContentBlock[]", () => {
	it("S7.12 a bare-string content on a current record is rejected with a clear reason", () => {
		const line = `{"recordType":"message",${HEAD},"role":"user","content":"hello"}`;
		const problem = problemOf(parseRecordLine(line));
		expect(problem.code).toBe("BARE_STRING_CONTENT");
		expect(problem.path).toBe("content");
		expect(problem.message).toContain("not a bare string (S7.12)");
		expect(problem.message).toContain('[{"type":"text","text":"..."}]');
	});

	it("S7.12 a bare-string content on a custom_message is rejected too", () => {
		const line = `{"recordType":"custom_message",${HEAD},"customType":"x","content":"hello"}`;
		expect(problemOf(parseRecordLine(line)).code).toBe("BARE_STRING_CONTENT");
	});

	it("S7.12 a legacy schemaVersion-0 record (no schemaVersion) with bare-string content is upgraded to text blocks", () => {
		const parsed = parseRecordLine(
			'{"recordType":"message","seq":1,"timestamp":"2024-01-01T00:00:00Z","role":"user","content":"hi"}',
		);
		expect(parsed).toStrictEqual({
			ok: true,
			migratedFrom: 0,
			record: {
				recordType: "message",
				schemaVersion: 1,
				seq: 1,
				timestamp: "2024-01-01T00:00:00Z",
				role: "user",
				content: [{ type: "text", text: "hi" }],
			},
		});
	});

	it("S7.12 an explicit schemaVersion 0 record is upgraded the same way, and legacy tool names are renamed", () => {
		const line = JSON.stringify({
			recordType: "message",
			schemaVersion: 0,
			seq: 2,
			timestamp: "t",
			role: "assistant",
			content: [
				{ type: "toolCall", id: "1", name: "read_file", arguments: { path: "a" } },
				{ type: "toolCall", id: "2", name: "write_file", arguments: { path: "b" } },
				{ type: "toolCall", id: "3", name: "list_directory", arguments: {} },
				{ type: "toolCall", id: "4", name: "bash", arguments: {} },
			],
		});
		const record = recordOf(parseRecordLine(line));
		expect(record.recordType === "message" && record.content.map((b) => b.type === "toolCall" && b.name)).toEqual([
			"read",
			"write",
			"ls",
			"bash",
		]);
		const result = recordOf(
			parseRecordLine(
				'{"recordType":"message","seq":3,"timestamp":"t","role":"toolResult","content":"x","toolCallId":"1","toolName":"read_file"}',
			),
		);
		expect(result).toMatchObject({ toolName: "read", content: [{ type: "text", text: "x" }] });
	});

	it("S7.12 a current record is not migrated: its legacy-looking tool names stay as written", () => {
		const line = `{"recordType":"message",${HEAD},"role":"assistant","content":[{"type":"toolCall","id":"1","name":"read_file","arguments":{}}]}`;
		const parsed = parseRecordLine(line);
		expect(parsed.ok && "migratedFrom" in parsed).toBe(false);
		expect(recordOf(parsed)).toMatchObject({ content: [{ name: "read_file" }] });
	});
});

describe("parseRecordLine: hostile input never throws", () => {
	it("__proto__ keys do not pollute prototypes", () => {
		const line = `{"recordType":"message",${HEAD},"__proto__":{"polluted":1},"role":"assistant","content":[{"type":"toolCall","id":"a","name":"b","arguments":{"__proto__":{"polluted":2},"constructor":{"prototype":{"polluted":3}}}}],"details":{"__proto__":{"polluted":4}}}`;
		const record = recordOf(parseRecordLine(line));
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
		expect((record as unknown as Record<string, unknown>).polluted).toBeUndefined();
		const call = record.recordType === "message" ? record.content[0] : undefined;
		const args = call?.type === "toolCall" ? call.arguments : {};
		expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
		expect(args.polluted).toBeUndefined();
		// In tool arguments "__proto__" is data: an own key with its value, never the prototype.
		expect(Object.keys(args)).toEqual(["__proto__", "constructor"]);
		expect(Object.getOwnPropertyDescriptor(args, "__proto__")?.value).toEqual({ polluted: 2 });
		const details = record.recordType === "message" ? (record.details as Record<string, unknown>) : {};
		expect(Object.getPrototypeOf(details)).toBe(Object.prototype);
		expect(details.polluted).toBeUndefined();
	});

	it("__proto__ in an opaque line is kept as an own key, not as a prototype", () => {
		const record = recordOf(parseRecordLine('{"recordType":"x","schemaVersion":1,"seq":1,"__proto__":{"polluted":1}}'));
		expect(record.recordType === "opaque" && Object.getPrototypeOf(record.original)).toBe(Object.prototype);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it("a 20 MB string is read as a record", () => {
		const text = "x".repeat(20_000_000);
		const record = recordOf(
			parseRecordLine(`{"recordType":"message",${HEAD},"role":"user","content":[{"type":"text","text":"${text}"}]}`),
		);
		expect(record.recordType === "message" && record.content[0]?.type === "text" && record.content[0].text.length).toBe(
			20_000_000,
		);
	});

	it("a 20 MB line of garbage is INVALID_JSON with a short message", () => {
		const problem = problemOf(parseRecordLine(`{"a":${"9".repeat(20_000_000)}x`));
		expect(problem.code).toBe("INVALID_JSON");
		expect(problem.message.length).toBeLessThan(300);
	});

	it("a huge string seq or recordType is reported without echoing it whole", () => {
		const problem = problemOf(parseRecordLine(`{"recordType":"message","seq":"${"7".repeat(1_000_000)}"}`));
		expect(problem.code).toBe("INVALID_SEQ");
		expect(problem.message.length).toBeLessThan(200);
	});

	it("nesting deeper than MAX_NESTING_DEPTH is a SCHEMA_VIOLATION at the top-level field, not a stack overflow", () => {
		const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
		const line = `{"recordType":"message",${HEAD},"role":"assistant","content":[{"type":"toolCall","id":"a","name":"b","arguments":{"x":${deep}}}]}`;
		const problem = problemOf(parseRecordLine(line));
		expect(problem).toMatchObject({ code: "SCHEMA_VIOLATION", path: "content" });
		expect(problem.message).toContain(`deeper than ${MAX_NESTING_DEPTH} levels`);
	});

	it("deep nesting in an opaque line is rejected too, so re-serializing it cannot overflow", () => {
		const deep = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
		const problem = problemOf(parseRecordLine(`{"recordType":"future","schemaVersion":1,"seq":1,"data":${deep}}`));
		expect(problem).toMatchObject({ code: "SCHEMA_VIOLATION", path: "data" });
	});

	it("nesting right at the limit is accepted", () => {
		// The record is level 1, `details` holds levels 2 .. MAX_NESTING_DEPTH.
		const levels = MAX_NESTING_DEPTH - 1;
		const details = `${"[".repeat(levels)}${"]".repeat(levels)}`;
		const line = `{"recordType":"message",${HEAD},"role":"user","content":[],"details":${details}}`;
		expect(parseRecordLine(line).ok).toBe(true);
		const over = `{"recordType":"message",${HEAD},"role":"user","content":[],"details":[${details}]}`;
		expect(parseRecordLine(over).ok).toBe(false);
	});

	it("a top-level value nested 500 000 deep is NOT_AN_OBJECT, not a crash", () => {
		expect(problemOf(parseRecordLine(`${"[".repeat(500_000)}${"]".repeat(500_000)}`)).code).toBe("NOT_AN_OBJECT");
	});
});
