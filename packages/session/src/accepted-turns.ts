import {
	AgentSessionError,
	type ContentBlock,
	findLoneSurrogate,
	InvalidRecordError,
	isSideRecord,
	type JournaledTurn,
	type RecordInput,
	type SessionLease,
	type SessionRecord,
	type SessionStore,
	type StoredRecord,
	toolCallsOf,
} from "@agent/session-format/reading";

/**
 * Accepted means recorded. A turn the runtime accepted (`enqueue`: HTTP 202) is noted in the
 * store's turn journal before it is acknowledged, and forgotten once its `turn` record is in the
 * log. If the process that accepted it dies first (a crash, SIGKILL), the next turn on the session
 * (on any instance that shares the store) records it before it starts, as the spec's context rule
 * keeps every message in order: its user message (unless it was written already), an `aborted`
 * reply closing it (as a cancelled turn's is: UIs show it, pi-ai does not send it to the model),
 * and a `turn` record with outcome `interrupted`. So the log never holds a question with no answer
 * and no word of why, and `turns` lists every turn that was ever acknowledged.
 */

/** How many records at the end of a log are read to find where the last turn ended. */
const TAIL_RECORDS = 512;

/** The journal of a store that keeps one, else undefined (such a store's turns are not journaled). */
export function journalOf(
	store: SessionStore,
): Required<Pick<SessionStore, "noteAcceptedTurn" | "acceptedTurns" | "forgetAcceptedTurn">> | undefined {
	const { noteAcceptedTurn, acceptedTurns, forgetAcceptedTurn } = store;
	if (!noteAcceptedTurn || !acceptedTurns || !forgetAcceptedTurn) return undefined;
	return {
		noteAcceptedTurn: noteAcceptedTurn.bind(store),
		acceptedTurns: acceptedTurns.bind(store),
		forgetAcceptedTurn: forgetAcceptedTurn.bind(store),
	};
}

/** Refuses, before a turn is accepted, a user message no store would append (a lone surrogate in its text). */
export function checkUserContent(content: readonly ContentBlock[]): void {
	const found = findLoneSurrogate(content);
	if (found) {
		throw new InvalidRecordError(`@agent/session: the message's content.${found.path} ${found.problem}`, {
			path: `content.${found.path}`,
		});
	}
}

/** Notes an accepted turn in the store's journal; false when the store keeps none. */
export async function noteAcceptedTurn(
	store: SessionStore,
	sessionId: string,
	turnId: string,
	content: ContentBlock[],
): Promise<boolean> {
	if (!store.noteAcceptedTurn) return false;
	await store.noteAcceptedTurn(sessionId, { turnId, acceptedAt: new Date().toISOString(), content });
	return true;
}

/**
 * Under the session's lease, before turn `turnId` starts: records every lost turn of the session
 * (see above) and forgets it; each record appended goes to `onRecord`. `ours` tells the turns
 * this runtime still has queued or running (never lost, whatever the journal says of their
 * owner). A `journaled` turn that is no longer noted was taken for lost and recorded as
 * interrupted by another instance: it must not run, and this throws ABORTED (the lease released).
 */
export async function recordLostTurns(
	store: SessionStore,
	lease: SessionLease,
	turnId: string,
	options: { journaled: boolean; ours: (turnId: string) => boolean; onRecord: (record: SessionRecord) => void },
): Promise<void> {
	let stillNoted: boolean;
	try {
		stillNoted = await recordLost(store, lease, turnId, options);
	} catch (error) {
		await lease.release();
		throw error;
	}
	if (options.journaled && !stillNoted) {
		await lease.release();
		throw new AgentSessionError(
			"ABORTED",
			"@agent/session: the turn was recorded as interrupted by another instance (this one lost its database connection while the turn waited); send it again",
		);
	}
}

/** recordLostTurns' work; returns whether `turnId` is still noted. */
async function recordLost(
	store: SessionStore,
	lease: SessionLease,
	turnId: string,
	options: { ours: (turnId: string) => boolean; onRecord: (record: SessionRecord) => void },
): Promise<boolean> {
	const journal = journalOf(store);
	if (!journal) return true;
	const noted = await journal.acceptedTurns(lease.sessionId);
	const lost = noted.filter((turn) => turn.lost && !options.ours(turn.turnId));
	const stillNoted = noted.some((turn) => turn.turnId === turnId);
	if (lost.length === 0) return stillNoted;
	const tail = await store.tail(lease.sessionId, TAIL_RECORDS);
	const recorded = new Set(tail.flatMap((record) => (record.recordType === "turn" ? [record.turnId] : [])));
	const unfinished = recordsAfterLastTurn(tail);
	for (const turn of lost) {
		if (!recorded.has(turn.turnId)) {
			const started = startedAs(turn, unfinished);
			for (const record of await recordInterrupted(lease, turn, started ? unfinished : [], LOST))
				options.onRecord(record);
			if (started) unfinished.length = 0;
		}
		await journal.forgetAcceptedTurn(lease.sessionId, turn.turnId);
	}
	return stillNoted;
}

/** The records after the log's last `turn` record: those of a turn that never ended, if any. */
function recordsAfterLastTurn(tail: readonly StoredRecord[]): StoredRecord[] {
	let last = -1;
	for (let i = tail.length - 1; i >= 0; i--) {
		if (tail[i]?.recordType === "turn") {
			last = i;
			break;
		}
	}
	return tail.slice(last + 1);
}

/** True when the unfinished records are this turn's: its user message is the first message among them. */
function startedAs(turn: JournaledTurn, unfinished: readonly StoredRecord[]): boolean {
	const first = unfinished.find((record) => !isSideRecord(record));
	return (
		first?.recordType === "message" &&
		first.role === "user" &&
		JSON.stringify(first.content) === JSON.stringify(turn.content)
	);
}

const LOST = "the process running it stopped (recorded when the session was next used)";
const STOPPED_WAITING = "the process stopped before the turn's time came (it waited in the queue)";

/**
 * A journaled turn its process stops before it started (a server's shutdown, while the turn
 * waited in the queue or for the lease): recorded as interrupted now, with its user message and an
 * aborted reply, so that the log tells every acknowledged turn. False when it could not be (the
 * lease was not had within `waitMs`, the store failed): the turn then stays in the journal and is
 * recorded as lost when the session is next used.
 */
export async function recordUnstartedTurn(
	store: SessionStore,
	sessionId: string,
	turnId: string,
	options: { waitMs: number; onRecord: (record: SessionRecord) => void },
): Promise<boolean> {
	const journal = journalOf(store);
	if (!journal) return false;
	let lease: SessionLease;
	try {
		lease = await store.lease(sessionId, { waitMs: options.waitMs });
	} catch {
		return false;
	}
	try {
		const turn = (await journal.acceptedTurns(sessionId)).find((noted) => noted.turnId === turnId);
		// Not noted any more: another instance took it for lost and recorded it.
		if (!turn) return true;
		for (const record of await recordInterrupted(lease, turn, [], STOPPED_WAITING)) options.onRecord(record);
		return true;
	} catch {
		return false;
	} finally {
		await lease.release().catch(() => undefined);
	}
}

async function recordInterrupted(
	lease: SessionLease,
	turn: JournaledTurn,
	written: readonly StoredRecord[],
	why: string,
): Promise<SessionRecord[]> {
	const messages = written.filter((record) => !isSideRecord(record));
	const last = messages[messages.length - 1];
	const answered =
		last?.recordType === "message" &&
		last.role === "assistant" &&
		toolCallsOf(last.content).length === 0 &&
		last.stopReason !== "error" &&
		last.stopReason !== "aborted";
	const closing: RecordInput[] = [];
	if (written.length === 0) closing.push({ recordType: "message", role: "user", content: turn.content });
	if (!answered) {
		closing.push({
			recordType: "message",
			role: "assistant",
			content: [],
			stopReason: "aborted",
			errorMessage: `interrupted: the process running this turn stopped before it was answered (accepted at ${turn.acceptedAt}); send it again to get an answer`,
		});
	}
	const appended = closing.length > 0 ? (await lease.append(closing)).records : [];
	const turnRecords = [...written, ...appended];
	const first = turnRecords[0];
	const lastRecord = turnRecords[turnRecords.length - 1];
	const error = new AgentSessionError("ABORTED", `@agent/session: the turn was interrupted: ${why}`);
	const record: RecordInput = {
		recordType: "turn",
		turnId: turn.turnId,
		outcome: "interrupted",
		startedAt: turn.acceptedAt,
		durationMs: 0,
		error: { code: "INTERRUPTED", message: error.message },
		...(first && lastRecord ? { firstSeq: first.seq, lastSeq: lastRecord.seq } : {}),
	};
	const closed = await lease.append([record]);
	return [...appended, ...closed.records];
}
