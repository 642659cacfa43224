import {
	type DescendingPath,
	type DescendingWalkOptions,
	type ReadOptions,
	type StoredRecord,
	walkPathDescending,
} from "@agent/session-format";
import { type Db, decodeRow, type RecordRow, rowsBackward } from "./rows.js";
import { where } from "./session-rows.js";

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
): Promise<DescendingPath<StoredRecord>> {
	const seek = { need: walk.leafSeq };
	const decoded = new Map<RecordRow, StoredRecord>();
	const recordOf = (row: RecordRow): StoredRecord | undefined => {
		const record = decodeRow(row, read, where(id));
		if (record) decoded.set(row, record);
		return record;
	};
	const walked = await walkPathDescending(rowsBackward(db, id, walk.leafSeq, seek), recordOf, walk, seek);
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
