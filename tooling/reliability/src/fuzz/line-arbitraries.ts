import { MAX_NESTING_DEPTH, type RecordInput, recordLine, validateRecordInput } from "@agent/session-format";
import fc from "fast-check";

/** One line of a fuzzed log, and what any reader must make of it. */
export interface FuzzLine {
	kind: string;
	/** The line's bytes, without its LF (no 0x0A inside). */
	bytes: Buffer;
	/** True when no reader may return this line as a record. */
	mustFail: boolean;
}

/** A fuzzed log: lines joined by LF; the last one without its LF when `torn`. */
export interface FuzzLog {
	lines: FuzzLine[];
	torn: boolean;
}

const TIMESTAMP = "2026-01-02T03:04:05.678Z";

const anyText = fc.oneof(
	fc.string({ unit: "binary", maxLength: 80 }),
	fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), maxLength: 4 }),
	fc.constantFrom("", "\u0000", "\u2028\u2029\u0085", "\r", "\uFEFF", "../../etc/passwd", "__proto__"),
	fc.integer({ min: 1_000, max: 1 << 20 }).map((n) => "L".repeat(n)),
);

const recordInput: fc.Arbitrary<RecordInput> = fc.oneof(
	anyText.map((text): RecordInput => ({ recordType: "message", role: "user", content: [{ type: "text", text }] })),
	fc.tuple(anyText, anyText).map(
		([name, argument]): RecordInput => ({
			recordType: "message",
			role: "assistant",
			content: [{ type: "toolCall", id: "call_1", name: name || "tool", arguments: { argument } }],
		}),
	),
	fc
		.tuple(anyText, fc.jsonValue({ maxDepth: 6 }))
		.map(([customType, data]): RecordInput => ({ recordType: "custom", customType: customType || "x", data })),
	anyText.map((name): RecordInput => ({ recordType: "session_info", name: name.slice(0, 200) || "n" })),
);

/** A valid line for `seq`: a generated record as the store writes it. */
function validLine(input: RecordInput, seq: number): string {
	try {
		return recordLine(validateRecordInput(input, { seq, timestamp: TIMESTAMP })).slice(0, -1);
	} catch {
		const fallback: RecordInput = { recordType: "message", role: "user", content: [{ type: "text", text: "ok" }] };
		return recordLine(validateRecordInput(fallback, { seq, timestamp: TIMESTAMP })).slice(0, -1);
	}
}

const line = (kind: string, text: string | Buffer, mustFail: boolean): FuzzLine => ({
	kind,
	bytes: typeof text === "string" ? Buffer.from(text) : text,
	mustFail,
});

/** Values of the wrong type for fields whose type every reader must check. */
const wrongTypes = fc.oneof(
	fc.constantFrom<[string, unknown]>(
		["seq", "1"],
		["seq", null],
		["seq", 1.5],
		["seq", -3],
		["seq", 0],
		["seq", []],
		["recordType", 5],
		["recordType", ""],
		["recordType", null],
		["schemaVersion", "1"],
		["schemaVersion", -1],
		["content", "bare string"],
		["content", 42],
		["content", [1, 2]],
		["content", [{ type: "text", text: 7 }]],
		["parentSeq", "x"],
		["parentSeq", 1e9],
	),
);

/** A mutation of a valid line for `seq`. */
function mutated(seq: number): fc.Arbitrary<FuzzLine> {
	const base = recordInput.map((input) => validLine(input, seq));
	return fc.oneof(
		base.map((text) => line("valid", text, false)),
		fc.tuple(base, fc.nat()).map(([text, at]) => {
			const bytes = Buffer.from(text);
			return line("truncated", bytes.subarray(0, at % bytes.length), true);
		}),
		fc.tuple(base, fc.nat(), fc.integer({ min: 0, max: 7 })).map(([text, at, bit]) => {
			const bytes = Buffer.from(text);
			const index = at % bytes.length;
			bytes[index] = (bytes[index] as number) ^ (1 << bit);
			if (bytes[index] === 0x0a) bytes[index] = 0x0b;
			return line("bit flip", bytes, false);
		}),
		fc.tuple(base, wrongTypes).map(([text, [field, value]]) => {
			const object = JSON.parse(text) as Record<string, unknown>;
			const hasContent = "content" in object;
			object[field] = value;
			const mustFail = field === "seq" || field === "recordType" || (field === "content" && hasContent);
			return line(`wrong type ${field}`, JSON.stringify(object) ?? "null", mustFail);
		}),
		fc.constantFrom(16, MAX_NESTING_DEPTH - 2, MAX_NESTING_DEPTH + 5, 5_000, 200_000).map((depth) => {
			const data = `${"[".repeat(depth)}${"]".repeat(depth)}`;
			const text = `{"recordType":"custom","schemaVersion":1,"seq":${seq},"timestamp":"${TIMESTAMP}","customType":"deep","data":${data}}`;
			return line(`nesting ${depth}`, text, depth > MAX_NESTING_DEPTH);
		}),
		fc.tuple(base, fc.constantFrom("top", "block", "constructor")).map(([text, where]) => {
			const poison = '"__proto__":{"polluted":"yes","seq":"x"}';
			if (where === "top") return line("__proto__ key", `{${poison},${text.slice(1)}`, false);
			if (where === "constructor") {
				return line("constructor key", `{"constructor":{"prototype":{"polluted":"yes"}},${text.slice(1)}`, false);
			}
			return line("__proto__ in a block", text.replace('"content":[{', `"content":[{${poison},`), false);
		}),
		fc
			.uint8Array({ maxLength: 200 })
			.map((bytes) => line("random bytes", Buffer.from(bytes.map((b) => (b === 0x0a ? 0x20 : b))), false)),
		base.map((text) => line("two records glued", `${text}${text}`, true)),
		base.map((text) => line("trailing garbage", `${text}x`, true)),
		base.map((text) => line("BOM", `\uFEFF${text}`, false)),
		base.map((text) => line("CR", `${text}\r`, false)),
		fc
			.constantFrom("{}", "[]", "null", "0", '"text"', "true", "\u0000\u0000", "{", "}", " ", "\t")
			.map((text) => line("not a record", text, text.trim() !== "")),
	);
}

/** A log of mostly valid records in seq order, with mutated lines among them. */
export function fuzzLog(maxLines: number): fc.Arbitrary<FuzzLog> {
	return fc
		.tuple(fc.array(fc.boolean(), { minLength: 1, maxLength: maxLines }), fc.boolean(), fc.nat())
		.chain(([slots, torn]) => {
			const lines = slots.map((isValid, index) =>
				isValid ? recordInput.map((input) => line("valid", validLine(input, index + 1), false)) : mutated(index + 1),
			);
			return fc.tuple(...lines).map((built) => ({ lines: built, torn }));
		});
}

/** The bytes of a log as they would sit on disk. */
export function logBytes(log: FuzzLog): Buffer {
	const parts: Buffer[] = [];
	for (const [index, entry] of log.lines.entries()) {
		parts.push(entry.bytes);
		if (index < log.lines.length - 1 || !log.torn) parts.push(Buffer.from("\n"));
	}
	return Buffer.concat(parts);
}
