import type { RecordProblem, SessionStore } from "@agent/session-format";
import { type PayloadId, payloadOf } from "./payload.js";

/** What a session's log holds, read back through the store the way any reader would. */
export interface SessionAudit {
	/** The payload of each record by seq (undefined: a record whose payload is not intact). */
	bySeq: Map<number, PayloadId | undefined>;
	lastSeq: number;
	problems: RecordProblem[];
	/** Seqs that are not 1, 2, 3, ... in log order. */
	seqBreaks: number;
	/** Messages returned whose payload is not intact, plus lines reported corrupt (not a torn tail). */
	corrupt: number;
	tornTails: number;
}

export async function auditSession(store: SessionStore, id: string): Promise<SessionAudit> {
	const problems: RecordProblem[] = [];
	const bySeq = new Map<number, PayloadId | undefined>();
	let expected = 1;
	let seqBreaks = 0;
	let corrupt = 0;
	for await (const record of store.read(id, { onProblem: (problem) => problems.push(problem) })) {
		if (record.seq !== expected) seqBreaks++;
		expected = record.seq + 1;
		const payload = payloadOf(record);
		// Our messages carry a checksummed payload; other records (a rename's session_info) passed the schema.
		if (!payload && record.recordType === "message") corrupt++;
		bySeq.set(record.seq, payload);
	}
	const tornTails = problems.filter((problem) => problem.code === "TORN_TAIL").length;
	corrupt += problems.length - tornTails;
	return { bySeq, lastSeq: expected - 1, problems, seqBreaks, corrupt, tornTails };
}

/** Acknowledged records that are not in the log as acknowledged (missing, or another payload under their seq). */
export function lostAcks<A extends { seq: number; n: number; tag: string }>(
	audit: SessionAudit,
	acks: readonly A[],
): A[] {
	return acks.filter((ack) => {
		const found = audit.bySeq.get(ack.seq);
		return !found || found.n !== ack.n || found.tag !== ack.tag;
	});
}
