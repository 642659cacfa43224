import type { StoredRecord } from "@agent/session-format/reading";

/**
 * Where a plan's records are: called with a seq, it yields the records of the path (root → leaf,
 * or the suffix a resume reads) with seq >= `fromSeq`, in order, and may be called again for
 * every pass. A store streams them from its log; prepareCompaction reads them from an array.
 */
export type PathSource = (fromSeq: number) => Iterable<StoredRecord> | AsyncIterable<StoredRecord>;

/** A {@link PathSource} over a path held in memory (seqs rise along a path, so it starts by a binary search). */
export function arraySource(path: readonly StoredRecord[]): PathSource {
	return function* (fromSeq: number) {
		let lo = 0;
		let hi = path.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if ((path[mid] as StoredRecord).seq < fromSeq) lo = mid + 1;
			else hi = mid;
		}
		for (let i = lo; i < path.length; i++) yield path[i] as StoredRecord;
	};
}

/** The records with fromSeq <= seq < toSeq, streamed from `source`. */
export async function* recordsBetween(
	source: PathSource,
	fromSeq: number,
	toSeq: number,
): AsyncGenerator<StoredRecord> {
	for await (const record of source(fromSeq)) {
		if (record.seq >= toSeq) return;
		if (record.seq >= fromSeq) yield record;
	}
}
