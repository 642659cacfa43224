import { CorruptRecordError } from "./errors.js";
import { parseRecordLine } from "./parse.js";
import type { StoredRecord } from "./records.js";
import type { RecordProblem } from "./store-contract.js";

export interface ParseLogOptions {
	/** Throw CorruptRecordError at the first bad line before the last one instead of skipping it. */
	strict?: boolean;
	/** Called for every line skipped or kept opaque, as it is met. */
	onProblem?: (problem: RecordProblem) => void;
	/** Names the log in error messages, e.g. its path; default "session log". */
	where?: string;
}

export interface ParsedLog {
	/** The records, in log order (opaque ones included). */
	records: StoredRecord[];
	/** Every line skipped or kept opaque, in log order. */
	problems: RecordProblem[];
}

/**
 * Reads a whole session log held in memory (a browser download, a test fixture, an export) by
 * the reader rules of docs/session-format.md: lines end with LF; blank lines are skipped; a bad
 * line before the last is reported with its line number and byte offset and skipped (or thrown
 * in strict mode); an unterminated last line that does not parse is a torn tail: reported, never
 * thrown, and the end of the log. Logs too large for one string are streamed by the store instead.
 */
export function parseSessionLog(text: string, options: ParseLogOptions = {}): ParsedLog {
	const records: StoredRecord[] = [];
	const problems: RecordProblem[] = [];
	const report = (problem: RecordProblem): void => {
		problems.push(problem);
		options.onProblem?.(problem);
	};
	let start = 0;
	let byteOffset = 0;
	let line = 0;
	while (start < text.length) {
		const end = text.indexOf("\n", start);
		const terminated = end >= 0;
		const raw = text.slice(start, terminated ? end : text.length);
		line++;
		if (!isBlank(raw)) {
			const parsed = parseRecordLine(raw);
			if (parsed.ok) {
				records.push(parsed.record);
				if (parsed.record.recordType === "opaque") {
					report({ line, byteOffset, code: "OPAQUE_RECORD", reason: parsed.record.reason });
				}
			} else if (!terminated) {
				report({
					line,
					byteOffset,
					code: "TORN_TAIL",
					reason: `the last line is incomplete (${utf8Length(raw)} bytes without a newline: ${parsed.problem.message}); it is the end of the log`,
				});
			} else {
				const reason = parsed.problem.path
					? `${parsed.problem.message} (at ${parsed.problem.path})`
					: parsed.problem.message;
				if (options.strict) throw new CorruptRecordError(options.where ?? "session log", line, byteOffset, reason);
				report({ line, byteOffset, code: parsed.problem.code, reason });
			}
		}
		if (!terminated) break;
		byteOffset += utf8Length(raw) + 1;
		start = end + 1;
	}
	return { records, problems };
}

/** True for a line of JSON whitespace only (space, tab, CR): such lines carry nothing and are skipped. */
function isBlank(line: string): boolean {
	for (let i = 0; i < line.length; i++) {
		const c = line.charCodeAt(i);
		if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
	}
	return true;
}

/** The length of `text` in UTF-8 bytes, without encoding it. */
export function utf8Length(text: string): number {
	let bytes = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c < 0x80) bytes += 1;
		else if (c < 0x800) bytes += 2;
		else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
			const next = text.charCodeAt(i + 1);
			if (next >= 0xdc00 && next <= 0xdfff) {
				bytes += 4;
				i++;
			} else bytes += 3;
		} else bytes += 3;
	}
	return bytes;
}
