import { describe, expect, it } from "vitest";
import { CorruptRecordError } from "./errors.js";
import { parseSessionLog, utf8Length } from "./log.js";
import { recordLine } from "./serialize.js";
import type { RecordProblem } from "./store-contract.js";
import { assistant, user } from "./test-builders.js";

const one = recordLine(user(1, "héllo ✓ 😀"));
const two = recordLine(assistant(2, "two"));
const three = recordLine(user(3, "three"));

describe("parseSessionLog: the reader rules", () => {
	it("a log of whole lines yields every record and no problem", () => {
		expect(parseSessionLog(one + two + three)).toEqual({
			records: [user(1, "héllo ✓ 😀"), assistant(2, "two"), user(3, "three")],
			problems: [],
		});
	});

	it("an empty log has no records", () => {
		expect(parseSessionLog("")).toEqual({ records: [], problems: [] });
	});

	it("a torn last line (crash mid-append, S7.9) is the end of the log: reported as TORN_TAIL, never thrown", () => {
		const torn = three.slice(0, 25);
		const log = one + two + torn;
		const result = parseSessionLog(log, { strict: true });
		expect(result.records.map((r) => r.seq)).toEqual([1, 2]);
		expect(result.problems).toEqual([
			{ line: 3, byteOffset: utf8Length(one + two), code: "TORN_TAIL", reason: expect.stringContaining("25 bytes") },
		]);
	});

	it("an unterminated last line that is a whole record is read (only its newline is missing)", () => {
		const result = parseSessionLog(one + two + three.slice(0, -1));
		expect(result.records.map((r) => r.seq)).toEqual([1, 2, 3]);
		expect(result.problems).toEqual([]);
	});

	it("a bad line in the middle is reported with its line number, byte offset and reason, and skipped", () => {
		const seen: RecordProblem[] = [];
		const result = parseSessionLog(`${one}{"recordType":"message",\n${three}`, { onProblem: (p) => seen.push(p) });
		expect(result.records.map((r) => r.seq)).toEqual([1, 3]);
		expect(result.problems).toEqual([
			{ line: 2, byteOffset: utf8Length(one), code: "INVALID_JSON", reason: expect.stringMatching(/^not valid JSON/) },
		]);
		expect(seen).toEqual(result.problems);
	});

	it("byte offsets count UTF-8 bytes, not UTF-16 code units", () => {
		expect(utf8Length("héllo ✓ 😀")).toBe(new TextEncoder().encode("héllo ✓ 😀").length);
		expect(utf8Length("a\ud800b")).toBe(new TextEncoder().encode("a\ud800b").length);
		const result = parseSessionLog(`${one}oops\n${three}`);
		expect(result.problems[0]?.byteOffset).toBe(new TextEncoder().encode(one).length);
	});

	it("a schema violation in the middle names the field path in its reason", () => {
		const bad =
			'{"recordType":"message","schemaVersion":1,"seq":2,"timestamp":"t","role":"user","content":[{"type":"text"}]}\n';
		expect(parseSessionLog(one + bad + three).problems[0]).toMatchObject({
			line: 2,
			code: "SCHEMA_VIOLATION",
			reason: expect.stringContaining("(at content.0.text)"),
		});
	});

	it("strict mode throws CorruptRecordError at a bad line in the middle, naming the log, line and byte offset", () => {
		try {
			parseSessionLog(`${one}oops\n${three}`, { strict: true, where: "sessions/X/session.jsonl" });
			expect.unreachable("strict mode should have thrown");
		} catch (error) {
			expect(error).toBeInstanceOf(CorruptRecordError);
			const corrupt = error as CorruptRecordError;
			expect(corrupt).toMatchObject({ code: "CORRUPT_RECORD", line: 2, byteOffset: utf8Length(one) });
			expect(corrupt.message).toMatch(/^sessions\/X\/session\.jsonl: line 2 \(byte offset \d+\)/);
		}
	});

	it("blank lines carry nothing and are skipped silently; CRLF line ends are read", () => {
		const result = parseSessionLog(`${one}\n  \r\n${two.replace("\n", "\r\n")}${three}`);
		expect(result.records.map((r) => r.seq)).toEqual([1, 2, 3]);
		expect(result.problems).toEqual([]);
	});

	it("opaque records are kept in place and reported as OPAQUE_RECORD, even in strict mode", () => {
		const future = '{"recordType":"hologram","schemaVersion":1,"seq":2,"timestamp":"t"}\n';
		const result = parseSessionLog(one + future + three, { strict: true });
		expect(result.records.map((r) => r.recordType)).toEqual(["message", "opaque", "message"]);
		expect(result.problems).toEqual([
			{ line: 2, byteOffset: utf8Length(one), code: "OPAQUE_RECORD", reason: 'unknown recordType "hologram"' },
		]);
	});
});
