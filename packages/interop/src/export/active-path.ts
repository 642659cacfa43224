import { parentSeqOf } from "@agent/session-format";
import type { RecordSource } from "./record-source.js";

export interface ActivePath {
	/** The seqs on the path from the root to the active leaf. */
	onPath: Set<number>;
	/** Records in the session. */
	total: number;
	leaf: number | null;
}

/**
 * Reads the session once, keeping only each record's parent (numbers, not records), and walks
 * from the active leaf (`leafSeq` when it is a record, else the last record) to the root.
 */
export async function activePath(source: RecordSource, leafSeq?: number): Promise<ActivePath> {
	const parents = new Map<number, number | null>();
	let last = 0;
	for await (const record of source()) {
		if (parents.has(record.seq)) continue;
		parents.set(record.seq, parentSeqOf(record));
		if (record.seq > last) last = record.seq;
	}
	const leaf = leafSeq !== undefined && parents.has(leafSeq) ? leafSeq : last === 0 ? null : last;
	const onPath = new Set<number>();
	let seq = leaf;
	while (seq !== null && parents.has(seq) && !onPath.has(seq)) {
		onPath.add(seq);
		const parent = parents.get(seq) ?? null;
		seq = parent !== null && parent < seq ? parent : null;
	}
	return { onPath, total: parents.size, leaf };
}
