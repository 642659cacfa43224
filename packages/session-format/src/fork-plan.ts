import type { SessionMetadata } from "./metadata.js";
import { newMetadata } from "./metadata-derive.js";
import type { SessionHeader, StoredRecord } from "./records.js";
import type { ForkOptions } from "./store-contract.js";

/**
 * What a fork makes of its source, the same in every store: a new session holding the path to
 * atSeq, renumbered 1..n and made linear (parentSeq dropped, compaction.firstKeptSeq and
 * branch_summary.fromSeq remapped), its first record carrying the new session's header.
 */

/** The metadata of a fork of `source` whose path ends at `leafSeq`, before any record (id to be set). */
export function forkMetadata(
	source: SessionMetadata,
	options: ForkOptions,
	leafSeq: number,
	now: Date,
): SessionMetadata {
	const name = options.name !== undefined && options.name.length > 0 ? options.name : source.name;
	const metadata = newMetadata(
		"",
		{
			model: source.model,
			...(name !== undefined ? { name } : {}),
			...(source.systemPromptOverride !== undefined ? { systemPromptOverride: source.systemPromptOverride } : {}),
			...(source.cwd !== undefined ? { cwd: source.cwd } : {}),
			// A fork stays with the owner of what it was forked from (a user may only fork their own).
			...(source.createdBy !== undefined ? { createdBy: source.createdBy } : {}),
		},
		now,
	);
	metadata.forkedFrom = { sessionId: source.id, seq: leafSeq };
	return metadata;
}

/** The first record of the fork, carrying its header right after its timestamp (where a store writes it). */
export function withSessionHeader(record: StoredRecord, header: SessionHeader): StoredRecord {
	if (record.recordType === "opaque") return record;
	const { recordType, schemaVersion, seq, timestamp, ...rest } = record;
	delete (rest as { session?: SessionHeader }).session;
	return { recordType, schemaVersion, seq, timestamp, session: header, ...rest } as StoredRecord;
}

/** A record of the path renumbered for the fork (`newSeq`: old seq → new; `keptSeqs`: the path's old seqs, ascending). */
export function forkedRecord(
	record: StoredRecord,
	newSeq: ReadonlyMap<number, number>,
	keptSeqs: readonly number[],
): StoredRecord {
	const seq = newSeq.get(record.seq) as number;
	if (record.recordType === "opaque") {
		const { parentSeq: _dropped, ...original } = record.original;
		return { ...record, seq, parentSeq: undefined, original };
	}
	const copy = { ...record, seq };
	delete copy.parentSeq;
	delete (copy as { session?: SessionHeader }).session;
	if (copy.recordType === "compaction") {
		// The context keeps the records before the compaction with seq >= firstKeptSeq: the same run here.
		const first = keptSeqs[firstAtLeast(keptSeqs, copy.firstKeptSeq)];
		copy.firstKeptSeq = first === undefined ? seq : Math.min(newSeq.get(first) as number, seq);
	} else if (copy.recordType === "branch_summary") copy.fromSeq = newSeq.get(copy.fromSeq) ?? seq;
	return copy;
}

/** The index of the first value >= target in an ascending array (its length when none). */
function firstAtLeast(sorted: readonly number[], target: number): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const mid = (low + high) >> 1;
		if ((sorted[mid] as number) < target) low = mid + 1;
		else high = mid;
	}
	return low;
}
