import type { RecordInput } from "@agent/session-format";

/** The position (1-based) of a converted record's parent in its conversion; null for a root. */
export function parentPosition(input: RecordInput, position: number): number | null {
	if (input.parentSeq === undefined) return position > 1 ? position - 1 : null;
	return input.parentSeq;
}

/**
 * A converted record with its references (firstKeptSeq, targetSeq, fromSeq) turned from
 * positions of the conversion into stored seqs, and no parentSeq (the caller sets it).
 */
export function remapReferences(input: RecordInput, seqOf: (position: number) => number): RecordInput {
	const out = { ...input } as RecordInput;
	delete out.parentSeq;
	switch (out.recordType) {
		case "compaction":
			out.firstKeptSeq = seqOf(out.firstKeptSeq);
			break;
		case "label":
			out.targetSeq = seqOf(out.targetSeq);
			break;
		case "branch_summary":
			out.fromSeq = seqOf(out.fromSeq);
			break;
		default:
			break;
	}
	return out;
}
