import { isSideRecord, parentSeqOf } from "./record-kinds.js";
import type { StoredRecord } from "./records.js";

/** How far a backward walk of a path goes, and from where. */
export interface DescendingWalkOptions {
	leafSeq: number;
	/** Stop at the latest compaction's firstKeptSeq instead of walking on to the root. */
	stopAtCompaction: boolean;
	/** With stopAtCompaction, still reach back to this seq when it lies before the compaction's firstKeptSeq. */
	reachSeq?: number;
	/** Stop once the path has reached back to this seq (its records below it are not needed). */
	floorSeq?: number;
	/** When the leaf's record is missing, start from the nearest earlier record instead of returning nothing. */
	leafFallsBack?: boolean;
}

export interface DescendingPath<E> {
	/** The entries on the path, root → leaf (side records are never on it). */
	items: E[];
	/** The first record the walk took: the leaf, or the record it fell back to; absent when none was found. */
	start?: { seq: number; side: boolean };
}

/**
 * Walks the path to `leafSeq` over a log's records given newest first (in batches), taking only
 * as many as it needs: with `stopAtCompaction`, back to the firstKeptSeq of the latest compaction
 * on the path (or the root when there is none) — everything a context needs, so the cost follows
 * the live context and not the log. A side record met on the way (the leaf itself, or a parent)
 * stands for its own parent and is never on the path. Empty when the leaf itself is not a record
 * (unless `leafFallsBack`). Every store walks with this: the file store over lines read backwards
 * from the end of its file, the PostgreSQL store over rows read by descending seq.
 *
 * Gives the path SessionTree gives after a full read, for every log whose seqs rise record by
 * record: the latest record of a seq wins, and a parent that is missing ends the path — going
 * backwards, meeting a record below the seq needed means that seq is not there.
 *
 * `recordOf` reads an entry (undefined: it holds no record, e.g. a damaged line, and is passed
 * over), lazily, so what the walk never reaches is never decoded. `next` is told the seq the walk needs next after each batch, so a source that can seek (a
 * database) may skip the records between (a branch point far back); a source that cannot ignores it.
 */
export async function walkPathDescending<E>(
	batches: AsyncIterable<readonly E[]>,
	recordOf: (entry: E) => StoredRecord | undefined,
	options: DescendingWalkOptions,
	next?: { need: number },
): Promise<DescendingPath<E>> {
	const reversed: E[] = [];
	const result: DescendingPath<E> = { items: reversed };
	const done = () => {
		reversed.reverse();
		return result;
	};
	if (options.leafSeq <= 0) return result;
	let need = options.leafSeq;
	let floor: number | undefined = options.floorSeq;
	if (next) next.need = need;
	for await (const batch of batches) {
		for (const entry of batch) {
			const record = recordOf(entry);
			if (record === undefined || record.seq > need) continue;
			// The seq needed is not in the log. A missing parent ends the path; a missing default leaf
			// falls back to the last readable record (SessionTree.activeLeaf), which this is.
			if (record.seq < need && (result.start !== undefined || !options.leafFallsBack)) return done();
			const side = isSideRecord(record);
			result.start ??= { seq: record.seq, side };
			if (!side) {
				reversed.push(entry);
				if (options.stopAtCompaction && floor === undefined && record.recordType === "compaction") {
					floor = Math.min(record.firstKeptSeq, options.reachSeq ?? record.firstKeptSeq);
				}
			}
			const parent = parentSeqOf(record);
			if (parent === null || parent >= record.seq || (floor !== undefined && parent < floor)) return done();
			need = parent;
		}
		if (next) next.need = need;
	}
	return done();
}
