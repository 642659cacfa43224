import { AgentSessionError, isSideRecord, type SessionStore } from "@agent/session-format/reading";

const PREFIX = "@agent/session:";

/** Throws INVALID_ARGUMENT unless `parentSeq` is a whole number >= 1 (checked before a turn is queued). */
export function checkParentSeqShape(parentSeq: unknown): void {
	if (typeof parentSeq !== "number" || !Number.isInteger(parentSeq) || parentSeq < 1) {
		throw new AgentSessionError(
			"INVALID_ARGUMENT",
			`${PREFIX} parentSeq must be the seq (a whole number >= 1) of the message to continue from, got ${JSON.stringify(parentSeq)}`,
		);
	}
}

/**
 * Throws INVALID_ARGUMENT unless `parentSeq` names a record of the session a message can follow:
 * one that exists and belongs to a branch (a name, a label, a leaf move or a turn's record does
 * not). Seqs are never reused, so what holds once holds for good: the check may run before the lease.
 */
export async function checkParentSeq(store: SessionStore, sessionId: string, parentSeq: number): Promise<void> {
	checkParentSeqShape(parentSeq);
	for await (const record of store.readFrom(sessionId, parentSeq)) {
		if (record.seq !== parentSeq) break;
		if (isSideRecord(record)) {
			throw new AgentSessionError(
				"INVALID_ARGUMENT",
				`${PREFIX} cannot continue session ${sessionId} from seq ${parentSeq}: it is a ${record.recordType} record, which belongs to no branch; give the seq of a message`,
			);
		}
		return;
	}
	throw new AgentSessionError(
		"INVALID_ARGUMENT",
		`${PREFIX} cannot continue session ${sessionId} from seq ${parentSeq}: the session has no readable record with that seq`,
	);
}
