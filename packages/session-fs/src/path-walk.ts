import { parentSeqOf, type RecordProblem, type StoredRecord } from "@agent/session-format";
import { readLinesBackward } from "./backward-reader.js";
import type { RawLine } from "./line-reader.js";
import { classifyLine, reportProblem } from "./record-reader.js";

export interface BackwardPathOptions {
	leafSeq: number;
	/** Stop at the latest compaction's firstKeptSeq instead of walking on to the root. */
	stopAtCompaction: boolean;
	/** When the leaf's line is unreadable, start from the nearest earlier record instead of returning nothing. */
	leafFallsBack?: boolean;
	end: number;
	chunkBytes?: number;
	onProblem?: (problem: RecordProblem) => void;
	where: string;
}

/**
 * Walks the path to `leafSeq` from the end of the log backwards, reading only as far as needed:
 * with `stopAtCompaction`, back to the firstKeptSeq of the latest compaction on the path (or the
 * root when there is none) — everything the context needs, so the cost follows the live context
 * and not the file. Returns what `keep` makes of each record on the path, root → leaf; empty
 * when the leaf itself is not a readable record (unless `leafFallsBack`).
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
): Promise<T[]> {
	const reversed: T[] = [];
	if (options.leafSeq <= 0) return reversed;
	let need = options.leafSeq;
	let floor: number | undefined;
	const read = { onProblem: options.onProblem, where: options.where };
	for await (const batch of readLinesBackward(fd, { end: options.end, chunkBytes: options.chunkBytes })) {
		for (const raw of batch) {
			const outcome = classifyLine(raw);
			if (outcome.kind === "blank") continue;
			if (outcome.problem) reportProblem(outcome.problem, read);
			if (outcome.kind !== "record") continue;
			const record = outcome.record;
			if (record.seq > need) continue;
			if (record.seq < need) {
				// The seq needed is not in the log. A missing parent ends the path; a missing default
				// leaf falls back to the last readable record (SessionTree.activeLeaf), which this is.
				if (reversed.length > 0 || !options.leafFallsBack) return reversed.reverse();
			}
			reversed.push(keep(record, raw));
			if (options.stopAtCompaction && floor === undefined && record.recordType === "compaction") {
				floor = record.firstKeptSeq;
			}
			const parent = parentSeqOf(record);
			if (parent === null || parent >= record.seq || (floor !== undefined && parent < floor)) {
				return reversed.reverse();
			}
			need = parent;
		}
	}
	return reversed.reverse();
}
