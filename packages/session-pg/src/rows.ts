import {
	CorruptRecordError,
	parseRecordLine,
	type ReadOptions,
	type RecordProblem,
	type StoredRecord,
	toWellFormed,
} from "@agent/session-format";
import { lineProblemReason } from "@agent/session-format/store-kit";
import type { Pool, PoolClient } from "pg";

/** Anything that runs a statement: the pool, or one connection (a transaction, a lease). */
export type Db = Pool | PoolClient;

export interface RecordRow {
	seq: number;
	line: string;
}

/** The key of a session's advisory lock: one 64-bit hash per session id, in a namespace of our own. */
export const LOCK_KEY_SQL = "hashtextextended('agent-session:' || $1, 0)";

/**
 * A row back to its record, by the reader rules of the file format (a row holds a line of
 * session.jsonl): a record of a newer version or an unknown type is kept opaque and reported; a
 * row that does not parse is reported and skipped (strict mode throws). Rows have no byte
 * offset: a problem names the row's seq as its line, and byte offset 0.
 */
export function decodeRow(row: RecordRow, options: ReadOptions, where: string): StoredRecord | undefined {
	const parsed = parseRecordLine(row.line);
	if (!parsed.ok) {
		const problem: RecordProblem = {
			line: row.seq,
			byteOffset: 0,
			code: parsed.problem.code,
			reason: lineProblemReason(parsed.problem),
		};
		if (options.strict) throw new CorruptRecordError(where, row.seq, 0, problem.reason);
		options.onProblem?.(problem);
		return undefined;
	}
	if (parsed.record.recordType === "opaque") {
		options.onProblem?.({ line: row.seq, byteOffset: 0, code: "OPAQUE_RECORD", reason: parsed.record.reason });
	}
	return parsed.record;
}

const PAGE_ROWS = 512;

/** The rows of a session with seq >= fromSeq, in seq order, a page at a time (never the whole log in memory). */
export async function* rowsForward(db: Db, id: string, fromSeq: number): AsyncGenerator<RecordRow[]> {
	let next = fromSeq;
	for (;;) {
		const { rows } = await db.query<RecordRow>(
			"SELECT seq, line FROM agent_records WHERE session_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3",
			[id, next, PAGE_ROWS],
		);
		if (rows.length > 0) yield rows;
		if (rows.length < PAGE_ROWS) return;
		next = (rows[rows.length - 1] as RecordRow).seq + 1;
	}
}

/** The rows the first page of a backward read holds (a resume usually needs only these). */
export const FIRST_BACKWARD_PAGE = 64;

/**
 * The rows of a session with seq <= fromSeq, newest first, in pages that grow (a resume usually
 * needs only the last few). `seek.need` (kept up to date by walkPathDescending) lets the next page
 * start at the seq the walk needs, skipping a branch's other records. `firstPage`, when given, is
 * the first page already read (FIRST_BACKWARD_PAGE rows from fromSeq down, or fewer at the start).
 */
export async function* rowsBackward(
	db: Db,
	id: string,
	fromSeq: number,
	seek?: { need: number },
	firstPage?: readonly RecordRow[],
): AsyncGenerator<RecordRow[]> {
	let below = fromSeq;
	let size = FIRST_BACKWARD_PAGE;
	let prefetched = firstPage;
	for (;;) {
		// A prepared statement (named): parsed once per connection, as resume runs it on every open.
		const { rows } = prefetched
			? { rows: prefetched as RecordRow[] }
			: await db.query<RecordRow>({
					name: "agent_records_backward",
					text: "SELECT seq, line FROM agent_records WHERE session_id = $1 AND seq <= $2 ORDER BY seq DESC LIMIT $3",
					values: [id, below, size],
				});
		prefetched = undefined;
		if (rows.length > 0) yield rows;
		if (rows.length < size) return;
		below = (rows[rows.length - 1] as RecordRow).seq - 1;
		if (seek && seek.need < below) below = seek.need;
		size = Math.min(size * 2, 4096);
	}
}

/** A record's type as its row indexes it (an opaque record keeps the type it was written with). */
export function rowType(record: StoredRecord): string {
	return record.recordType === "opaque" ? String(record.original.recordType ?? "opaque") : record.recordType;
}

/**
 * A value as text for a jsonb column. jsonb cannot hold U+0000 or a lone surrogate, in a string or
 * a key, so they become U+FFFD there. The text rules (@agent/session-format text-rules.ts) keep
 * both out of what metadata is made of; only a session copied from a log written before them can
 * bring one (and portableRecord replaced it in its records the same way, so cache and records agree).
 */
export function jsonbText(value: unknown): string {
	return JSON.stringify(value, (_key, inner: unknown) => {
		if (typeof inner === "string") return columnText(inner);
		if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return inner;
		const keys = Object.keys(inner);
		if (keys.every((key) => columnText(key) === key)) return inner;
		return Object.fromEntries(keys.map((key) => [columnText(key), (inner as Record<string, unknown>)[key]]));
	});
}

/** Text as a text or jsonb column can hold it: U+0000 and lone surrogates as U+FFFD. */
export function columnText(text: string): string {
	const wellFormed = toWellFormed(text);
	return wellFormed.includes("\u0000") ? wellFormed.replaceAll("\u0000", "\uFFFD") : wellFormed;
}
