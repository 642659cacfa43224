import { parentSeqOf, type RecordProblem, type StoredRecord } from "@agent/session-format";
import { readLinesBackward } from "./backward-reader.js";
import type { RawLine } from "./line-reader.js";
import { classifyLine, reportProblem } from "./record-reader.js";

export interface BackwardPathOptions {
	leafSeq: number;
	/** Stop at the latest compaction's firstKeptSeq instead of walking on to the root. */
	stopAtCompaction: boolean;
	end: number;
	chunkBytes?: number;
	onProblem?: (problem: RecordProblem) => void;
	where: string;
}

/**
 * Walks the path to `leafSeq` from the end of the log backwards, reading only as far as needed:
 * with `stopAtCompaction`, back to the firstKeptSeq of the latest compaction on the path (or the
 * root when there is none) — everything the context needs, so the cost follows the live context
 * and not the file. Returns what `keep` makes of each record on the path, root → leaf.
 * Mirrors SessionTree + walkPath exactly: a later line wins over an earlier one with the same
 * seq, and a missing parent ends the path.
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
	let done = false;
	// Records met before they were needed: only a log whose seqs go backwards has any.
	const early = new Map<number, { record: StoredRecord; raw: RawLine }>();

	const take = (record: StoredRecord, raw: RawLine) => {
		reversed.push(keep(record, raw));
		if (options.stopAtCompaction && floor === undefined && record.recordType === "compaction") {
			floor = record.firstKeptSeq;
		}
		const parent = parentSeqOf(record);
		if (parent === null || parent >= record.seq || (floor !== undefined && parent < floor)) done = true;
		else need = parent;
	};

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
				if (!early.has(record.seq)) early.set(record.seq, { record, raw });
				continue;
			}
			take(record, raw);
			while (!done && early.has(need)) {
				const next = early.get(need) as { record: StoredRecord; raw: RawLine };
				early.delete(need);
				take(next.record, next.raw);
			}
			if (done) return reversed.reverse();
		}
	}
	return reversed.reverse();
}
