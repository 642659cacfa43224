import { CorruptRecordError, parseRecordLine, type RecordProblem, type StoredRecord } from "@agent/session-format";
import { readLinesBackward } from "./backward-reader.js";
import { type RawLine, readLinesForward } from "./line-reader.js";

export type LineOutcome =
	| { kind: "record"; record: StoredRecord; problem?: RecordProblem }
	| { kind: "problem"; problem: RecordProblem }
	| { kind: "blank" };

/**
 * What one line of a log holds. A last line without its LF is a torn tail (a write that did not
 * finish), never a record, even when its bytes happen to parse. Blank lines are skipped silently.
 */
export function classifyLine(raw: RawLine): LineOutcome {
	const where = { line: raw.line, byteOffset: raw.byteOffset };
	if (!raw.terminated) {
		return {
			kind: "problem",
			problem: {
				...where,
				code: "TORN_TAIL",
				reason: `the last ${raw.byteLength} bytes have no newline: a write that never finished; they are ignored and the next writer cuts them off`,
			},
		};
	}
	if (raw.oversized) {
		return {
			kind: "problem",
			problem: {
				...where,
				code: "INVALID_JSON",
				reason: `the line is ${raw.byteLength} bytes, more than a reader decodes`,
			},
		};
	}
	if (raw.text.length === 0 || raw.text.trim().length === 0) return { kind: "blank" };
	const parsed = parseRecordLine(raw.text);
	if (!parsed.ok) {
		return { kind: "problem", problem: { ...where, code: parsed.problem.code, reason: parsed.problem.message } };
	}
	if (parsed.record.recordType === "opaque") {
		return {
			kind: "record",
			record: parsed.record,
			problem: { ...where, code: "OPAQUE_RECORD", reason: `kept opaque: ${parsed.record.reason}` },
		};
	}
	return { kind: "record", record: parsed.record };
}

export interface RecordReadOptions {
	strict?: boolean;
	onProblem?: (problem: RecordProblem) => void;
	signal?: AbortSignal;
	/** Names the log in CorruptRecordError messages. */
	where: string;
}

/** Hands a line's problem to the caller; in strict mode a corrupt line (not a torn tail or an opaque record) throws. */
export function reportProblem(problem: RecordProblem, options: RecordReadOptions): void {
	if (options.strict && problem.code !== "TORN_TAIL" && problem.code !== "OPAQUE_RECORD") {
		throw new CorruptRecordError(options.where, problem.line, problem.byteOffset, problem.reason);
	}
	options.onProblem?.(problem);
}

/** The records of a log in log order; bad lines go to onProblem (or throw in strict mode). */
export async function* readRecordsForward(
	fd: number,
	options: RecordReadOptions & { start?: number; end?: number; chunkBytes?: number },
): AsyncGenerator<StoredRecord> {
	const lines = readLinesForward(fd, { start: options.start, end: options.end, chunkBytes: options.chunkBytes });
	for await (const batch of lines) {
		options.signal?.throwIfAborted();
		for (const raw of batch) {
			const outcome = classifyLine(raw);
			if (outcome.kind === "blank") continue;
			if (outcome.problem) reportProblem(outcome.problem, options);
			if (outcome.kind === "record") yield outcome.record;
		}
	}
}

/** The records of a log from the end backwards (last first). */
export async function* readRecordsBackward(
	fd: number,
	options: RecordReadOptions & { end?: number; chunkBytes?: number },
): AsyncGenerator<StoredRecord> {
	for await (const batch of readLinesBackward(fd, { end: options.end, chunkBytes: options.chunkBytes })) {
		options.signal?.throwIfAborted();
		for (const raw of batch) {
			const outcome = classifyLine(raw);
			if (outcome.kind === "blank") continue;
			if (outcome.problem) reportProblem(outcome.problem, options);
			if (outcome.kind === "record") yield outcome.record;
		}
	}
}
