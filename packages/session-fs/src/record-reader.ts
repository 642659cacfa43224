import {
	CorruptRecordError,
	loadSchemaChecks,
	type RecordProblem,
	type StoredRecord,
	tryParseRecordLine,
} from "@agent/session-format/reading";
import { lineProblemReason } from "@agent/session-format/store-kit";
import { readLinesBackward } from "./backward-reader.js";
import { lineNumberer, type RawLine, readLinesForward } from "./line-reader.js";

export type LineOutcome =
	| { kind: "record"; record: StoredRecord; problem?: RecordProblem }
	| { kind: "problem"; problem: RecordProblem }
	| { kind: "blank" };

/**
 * What one line of a log holds, by the reader rules of docs/session-format.md. A last line
 * without its LF that parses is a record (its write landed but for the newline); one that does
 * not parse is a torn tail: reported, never thrown, the end of the log. Blank lines are skipped.
 *
 * Undefined when only the record schemas can decide the line and they are not loaded yet: the
 * caller awaits classifyLineLoading(raw) for it. Reading then never loads zod for the lines this
 * library writes (see schemas-on-demand in @agent/session-format).
 */
export function classifyLine(raw: RawLine): LineOutcome | undefined {
	const where = { line: raw.line, byteOffset: raw.byteOffset };
	if (raw.oversized) {
		const problem: RecordProblem = raw.terminated
			? { ...where, code: "INVALID_JSON", reason: `the line is ${raw.byteLength} bytes, more than a reader decodes` }
			: {
					...where,
					code: "TORN_TAIL",
					reason: `the last ${raw.byteLength} bytes have no newline and are too long to be a record`,
				};
		return { kind: "problem", problem };
	}
	if (isBlank(raw.text)) return { kind: "blank" };
	const parsed = tryParseRecordLine(raw.text);
	if (!parsed) return undefined;
	if (!parsed.ok) {
		if (!raw.terminated) {
			return {
				kind: "problem",
				problem: {
					...where,
					code: "TORN_TAIL",
					reason: `the last line is incomplete (${raw.byteLength} bytes without a newline: ${parsed.problem.message}); it is the end of the log, and the next writer cuts it off`,
				},
			};
		}
		return {
			kind: "problem",
			problem: { ...where, code: parsed.problem.code, reason: lineProblemReason(parsed.problem) },
		};
	}
	if (parsed.record.recordType === "opaque") {
		return {
			kind: "record",
			record: parsed.record,
			problem: { ...where, code: "OPAQUE_RECORD", reason: parsed.record.reason },
		};
	}
	return { kind: "record", record: parsed.record };
}

/** classifyLine's answer for a line it could not decide without the record schemas: loads them first. */
export async function classifyLineLoading(raw: RawLine): Promise<LineOutcome> {
	await loadSchemaChecks();
	return classifyLine(raw) as LineOutcome;
}

/** A line of JSON whitespace only (space, tab, CR) carries nothing. */
function isBlank(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
	}
	return true;
}

export interface RecordReadOptions {
	strict?: boolean;
	onProblem?: (problem: RecordProblem) => void;
	signal?: AbortSignal;
	/** Names the log in CorruptRecordError messages. */
	where: string;
	/** For readers that do not count lines (going backwards): the line number at a byte offset. */
	lineOf?: (byteOffset: number) => number;
}

/** Hands a line's problem to the caller; in strict mode a corrupt line (not a torn tail or an opaque record) throws. */
export function reportProblem(given: RecordProblem, options: RecordReadOptions): void {
	if (!options.onProblem && !options.strict) return;
	const problem = given.line === 0 && options.lineOf ? { ...given, line: options.lineOf(given.byteOffset) } : given;
	if (options.strict && problem.code !== "TORN_TAIL" && problem.code !== "OPAQUE_RECORD") {
		throw new CorruptRecordError(options.where, problem.line, problem.byteOffset, problem.reason);
	}
	options.onProblem?.(problem);
}

/** The records of a log in log order; bad lines go to onProblem (or throw in strict mode). */
export function readRecordsForward(
	fd: number,
	options: RecordReadOptions & { start?: number; end?: number; chunkBytes?: number; maxLineBytes?: number },
): AsyncGenerator<StoredRecord> {
	return recordsOf(
		readLinesForward(fd, {
			start: options.start,
			end: options.end,
			chunkBytes: options.chunkBytes,
			maxLineBytes: options.maxLineBytes,
		}),
		options,
	);
}

/** The records of a log from the end backwards (last first). */
export function readRecordsBackward(
	fd: number,
	options: RecordReadOptions & { end?: number; chunkBytes?: number; maxLineBytes?: number },
): AsyncGenerator<StoredRecord> {
	return recordsOf(
		readLinesBackward(fd, { end: options.end, chunkBytes: options.chunkBytes, maxLineBytes: options.maxLineBytes }),
		{
			...options,
			lineOf: options.lineOf ?? lineNumberer(fd),
		},
	);
}

/** The records among batches of lines, in their order; bad lines go to onProblem (or throw in strict mode). */
async function* recordsOf(batches: AsyncIterable<RawLine[]>, options: RecordReadOptions): AsyncGenerator<StoredRecord> {
	for await (const batch of batches) {
		options.signal?.throwIfAborted();
		for (const raw of batch) {
			const outcome = classifyLine(raw) ?? (await classifyLineLoading(raw));
			if (outcome.kind === "blank") continue;
			if (outcome.problem) reportProblem(outcome.problem, options);
			if (outcome.kind === "record") yield outcome.record;
		}
	}
}
