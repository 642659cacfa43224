import {
	AgentSessionError,
	creationFactsOf,
	isImportTarget,
	type SessionMetadata,
	type SessionStore,
	type StoredRecord,
	serializeRecord,
} from "@agent/session-format/reading";

/** Where a copy stands, after each session. */
export interface MigrationProgress {
	sessionId: string;
	/** 1-based position of this session among all. */
	index: number;
	total: number;
	/** Records copied into this session now (0: it was complete already). */
	copied: number;
	/** Records copied so far, all sessions. */
	copiedTotal: number;
}

export interface MigrationResult {
	sessions: number;
	/** Records copied by this run (a rerun after a complete one copies none). */
	copied: number;
	/** Records compared equal, source and target, after the copy. */
	verified: number;
}

const BATCH = 500;

/** Every session of a store (archived ones too), through its listing. */
async function allSessions(store: SessionStore): Promise<SessionMetadata[]> {
	const out: SessionMetadata[] = [];
	let cursor: string | undefined;
	do {
		const page = await store.list({ archived: true, limit: 1000, ...(cursor ? { cursor } : {}) });
		out.push(...page.sessions);
		cursor = page.nextCursor;
	} while (cursor);
	return out;
}

/**
 * Copies every session of `from` into `to` exactly: the same ids, the same records (the target
 * takes them as they are, seqs included), then reads both back and compares every record.
 * Resumable and idempotent: a session already in the target continues from its last seq, so a
 * run cut off is finished by running it again, and a rerun copies nothing. A target holding more
 * records than the source, or different ones, is reported and left as it is.
 */
export async function migrateStore(
	from: SessionStore,
	to: SessionStore,
	options: { onProgress?: (progress: MigrationProgress) => void; signal?: AbortSignal } = {},
): Promise<MigrationResult> {
	if (!isImportTarget(to)) {
		throw new AgentSessionError(
			"INVALID_ARGUMENT",
			"@agent/session: the target store cannot take sessions under their ids (it lacks adoptSession/appendExact); migrate into a file store or PostgreSQL",
		);
	}
	const sessions = (await allSessions(from)).sort((a, b) => (a.id < b.id ? -1 : 1));
	let copiedTotal = 0;
	let verified = 0;
	for (const [position, source] of sessions.entries()) {
		options.signal?.throwIfAborted();
		const id = source.id;
		const have = await to.adoptSession(id, creationFactsOf(source));
		let copied = 0;
		let batch: StoredRecord[] = [];
		for await (const record of from.readFrom(id, have + 1)) {
			batch.push(record);
			if (batch.length >= BATCH) {
				await to.appendExact(id, batch);
				copied += batch.length;
				batch = [];
			}
		}
		if (batch.length > 0) {
			await to.appendExact(id, batch);
			copied += batch.length;
		}
		verified += await compareSessions(from, to, id);
		copiedTotal += copied;
		options.onProgress?.({ sessionId: id, index: position + 1, total: sessions.length, copied, copiedTotal });
	}
	return { sessions: sessions.length, copied: copiedTotal, verified };
}

/** Reads a session from both stores side by side; throws at the first record that differs. Returns the count. */
async function compareSessions(from: SessionStore, to: SessionStore, id: string): Promise<number> {
	const target = to.read(id)[Symbol.asyncIterator]();
	let count = 0;
	for await (const record of from.read(id)) {
		const next = await target.next();
		const want = serializeRecord(record);
		const got = next.done ? undefined : serializeRecord(next.value);
		if (got !== want) {
			throw new AgentSessionError(
				"STORAGE_FAILURE",
				`@agent/session: session ${id} differs after the copy at seq ${record.seq} (${got === undefined ? "missing in the target" : "a different record in the target"}); the target kept what it had — inspect it, delete the session there, and run migrate again`,
			);
		}
		count++;
	}
	const extra = await target.next();
	if (!extra.done) {
		throw new AgentSessionError(
			"STORAGE_FAILURE",
			`@agent/session: session ${id} has more records in the target than in the source (from seq ${extra.value.seq}); it is not a copy of the source`,
		);
	}
	return count;
}
