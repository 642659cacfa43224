import type { ReadOptions, SessionMetadata, StoredRecord } from "@agent/session-format";
import { type DescendingPath, type DescendingWalkOptions, walkPathDescending } from "@agent/session-format/store-kit";
import type { Pool } from "pg";
import { storageFailure } from "./errors.js";
import { type Db, decodeRow, FIRST_BACKWARD_PAGE, type RecordRow, rowsBackward, rowsForward } from "./rows.js";
import { loadMetadata, where } from "./session-rows.js";

/**
 * The path to a leaf, read by descending seq only as far as the walk needs (session-format's
 * walkPathDescending, the walk the file store does over its file): with stopAtCompaction, back to
 * the latest compaction's firstKeptSeq, so the rows read follow the live context, not the log.
 */
export async function walkRows(
	db: Db,
	id: string,
	walk: DescendingWalkOptions,
	read: ReadOptions = {},
	firstPage?: readonly RecordRow[],
): Promise<DescendingPath<StoredRecord>> {
	const seek = { need: walk.leafSeq };
	const decoded = new Map<RecordRow, StoredRecord>();
	const recordOf = (row: RecordRow): StoredRecord | undefined => {
		const record = decodeRow(row, read, where(id));
		if (record) decoded.set(row, record);
		return record;
	};
	const walked = await walkPathDescending(rowsBackward(db, id, walk.leafSeq, seek, firstPage), recordOf, walk, seek);
	const items = walked.items.map((row) => decoded.get(row) as StoredRecord);
	return walked.start ? { items, start: walked.start } : { items };
}

/** The path records only (what checkCompactions needs). */
export async function readPath(db: Db, id: string, walk: DescendingWalkOptions): Promise<StoredRecord[]> {
	return (await walkRows(db, id, walk)).items;
}

/** One record by seq (an index look-up); undefined when there is none or it does not parse. */
export async function findRecord(db: Db, id: string, seq: number): Promise<StoredRecord | undefined> {
	const { rows } = await db.query<RecordRow>({
		name: "agent_record_at",
		text: "SELECT seq, line FROM agent_records WHERE session_id = $1 AND seq = $2",
		values: [id, seq],
	});
	const row = rows[0];
	return row ? decodeRow(row, {}, where(id)) : undefined;
}

/** What a resume reads first, in one statement: the metadata cache, the newest rows and the header row. */
export interface OpeningRows {
	/** Undefined when the session has no row; null when its metadata cache must be rebuilt. */
	metadata: SessionMetadata | null | undefined;
	/** The newest FIRST_BACKWARD_PAGE rows, newest first (a first page for walkRows). */
	newest: RecordRow[];
	/** The row of seq 1, when there is one. */
	header: RecordRow | undefined;
}

/**
 * One round trip (and one connection) for a resume's first reads, which before were three
 * statements on three connections: on a busy machine, three backends and their hand-offs cost
 * more than the rows. One statement also reads the three from one snapshot.
 */
export async function openingRows(db: Db, id: string): Promise<OpeningRows> {
	const { rows } = await db.query<{
		part: number;
		seq: number | null;
		line: string | null;
		metadata: SessionMetadata | null;
	}>({
		name: "agent_open",
		text: `SELECT 0 AS part, NULL::integer AS seq, NULL::text AS line, metadata FROM agent_sessions WHERE id = $1
			UNION ALL (SELECT 1, seq, line, NULL FROM agent_records WHERE session_id = $1 ORDER BY seq DESC LIMIT ${FIRST_BACKWARD_PAGE})
			UNION ALL (SELECT 2, seq, line, NULL FROM agent_records WHERE session_id = $1 AND seq = 1)`,
		values: [id],
	});
	const opening: OpeningRows = { metadata: undefined, newest: [], header: undefined };
	for (const row of rows) {
		if (row.part === 0) opening.metadata = row.metadata;
		else if (row.part === 1) opening.newest.push({ seq: row.seq as number, line: row.line as string });
		else opening.header = { seq: row.seq as number, line: row.line as string };
	}
	return opening;
}

/** The records with seq >= fromSeq in seq order, a page of rows at a time (a missing session fails when iterated). */
export async function* readRows(
	pool: Pool,
	id: string,
	fromSeq: number,
	options: ReadOptions,
): AsyncGenerator<StoredRecord> {
	await loadMetadata(pool, id).catch((error: unknown) => {
		throw storageFailure(`reading session ${id}`, error);
	});
	const pages = rowsForward(pool, id, fromSeq);
	for (;;) {
		let page: IteratorResult<RecordRow[]>;
		try {
			page = await pages.next();
		} catch (error) {
			throw storageFailure(`reading session ${id}`, error);
		}
		if (page.done) return;
		options.signal?.throwIfAborted();
		for (const row of page.value) {
			const record = decodeRow(row, options, where(id));
			if (record) yield record;
		}
	}
}
