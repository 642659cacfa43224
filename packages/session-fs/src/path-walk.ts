import { isSideRecord, parentSeqOf, type RecordProblem, type StoredRecord } from "@agent/session-format";
import { readLinesBackward } from "./backward-reader.js";
import { lineNumberer, type RawLine } from "./line-reader.js";
import { classifyLine, reportProblem } from "./record-reader.js";

export interface BackwardPathOptions {
	leafSeq: number;
	/** Stop at the latest compaction's firstKeptSeq instead of walking on to the root. */
	stopAtCompaction: boolean;
	/** With stopAtCompaction, still reach back to this seq when it lies before the compaction's firstKeptSeq. */
	reachSeq?: number;
	/** Stop once the path has reached back to this seq (its records below it are not needed). */
	floorSeq?: number;
	/** When the leaf's line is unreadable, start from the nearest earlier record instead of returning nothing. */
	leafFallsBack?: boolean;
	end: number;
	chunkBytes?: number;
	/** Longer lines are reported and skipped, not decoded (the store's maxLineBytes). */
	maxLineBytes?: number;
	onProblem?: (problem: RecordProblem) => void;
	/** Sees every record the walk reads, on the path or not (a fork collects the labels this way). */
	onRecord?: (record: StoredRecord, raw: RawLine) => void;
	where: string;
}

export interface BackwardPath<T> {
	/** What `keep` made of each record on the path, root → leaf (side records are never on it). */
	items: T[];
	/** The first record the walk took: the leaf, or the record it fell back to; absent when none was found. */
	start?: { seq: number; side: boolean };
}

/**
 * Walks the path to `leafSeq` from the end of the log backwards, reading only as far as needed:
 * with `stopAtCompaction`, back to the firstKeptSeq of the latest compaction on the path (or the
 * root when there is none) — everything the context needs, so the cost follows the live context
 * and not the file. A side record met on the way (the leaf itself, or a parent) is passed
 * through: it stands for its own parent and is never on the path. Empty when the leaf itself is
 * not a readable record (unless `leafFallsBack`).
 *
 * Gives the path SessionTree gives after a full read, for every log whose seqs rise line by line
 * (every log a store writes, damaged lines included): the latest line of a seq wins, and a
 * parent whose line is unreadable ends the path — reading backwards, meeting a record below the
 * seq needed means that seq is not there. A log whose seqs go backwards is corrupt (verify
 * reports it); the walk does not read it all to look further.
 */
export async function walkPathBackward<T>(
	fd: number,
	options: BackwardPathOptions,
	keep: (record: StoredRecord, raw: RawLine) => T,
): Promise<BackwardPath<T>> {
	const reversed: T[] = [];
	const result: BackwardPath<T> = { items: reversed };
	const done = () => {
		reversed.reverse();
		return result;
	};
	if (options.leafSeq <= 0) return result;
	let need = options.leafSeq;
	let floor: number | undefined = options.floorSeq;
	const read = { onProblem: options.onProblem, where: options.where, lineOf: lineNumberer(fd) };
	for await (const batch of readLinesBackward(fd, {
		end: options.end,
		chunkBytes: options.chunkBytes,
		maxLineBytes: options.maxLineBytes,
	})) {
		for (const raw of batch) {
			const outcome = classifyLine(raw);
			if (outcome.kind === "blank") continue;
			if (outcome.problem) reportProblem(outcome.problem, read);
			if (outcome.kind !== "record") continue;
			const record = outcome.record;
			options.onRecord?.(record, raw);
			if (record.seq > need) continue;
			// The seq needed is not in the log. A missing parent ends the path; a missing default leaf
			// falls back to the last readable record (SessionTree.activeLeaf), which this is.
			if (record.seq < need && (result.start !== undefined || !options.leafFallsBack)) return done();
			const side = isSideRecord(record);
			result.start ??= { seq: record.seq, side };
			if (!side) {
				reversed.push(keep(record, raw));
				if (options.stopAtCompaction && floor === undefined && record.recordType === "compaction") {
					floor = Math.min(record.firstKeptSeq, options.reachSeq ?? record.firstKeptSeq);
				}
			}
			const parent = parentSeqOf(record);
			if (parent === null || parent >= record.seq || (floor !== undefined && parent < floor)) return done();
			need = parent;
		}
	}
	return done();
}
