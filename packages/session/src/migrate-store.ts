import {
	AgentSessionError,
	creationFactsOf,
	isAgentSessionError,
	isImportTarget,
	portableRecord,
	type SeqGap,
	type SessionImportTarget,
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
	/** Records copied into this session now (0: it was complete already, or it failed). */
	copied: number;
	/** Records copied so far, all sessions. */
	copiedTotal: number;
	/** What became of this session. */
	session: SessionMigration;
}

/** What the copy did with one session. */
export interface SessionMigration {
	sessionId: string;
	/** "copied": records were copied now; "complete": the target had them all; "failed": see `error`. */
	status: "copied" | "complete" | "failed";
	/** Records copied now. */
	copied: number;
	/** Records compared equal, source and target, after the copy. */
	verified: number;
	/** Records the target stored with U+FFFD in place of text it cannot hold (portableRecord). */
	replaced?: number;
	/** Seqs missing from the source that its repair acknowledged: copied as the same gaps. */
	gaps?: SeqGap[];
	/** Why it failed: nothing of it is left in the target unless it was there before this run. */
	error?: { code: string; message: string };
}

export interface MigrationResult {
	sessions: number;
	/** Records copied by this run (a rerun after a complete one copies none). */
	copied: number;
	/** Records compared equal, source and target, after the copy. */
	verified: number;
	/** Sessions that could not be copied (each in `report` with its error): the run left them behind. */
	failed: number;
	/** One entry per session, in the order they were copied (by id). */
	report: SessionMigration[];
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
 * run cut off is finished by running it again, and a rerun copies nothing. A session that cannot
 * be copied (a gap its repair did not acknowledge, a target holding more or other records than
 * the source) is reported in `report` and the copy goes on with the next; one this run created
 * in the target is removed again, so no empty placeholder stays behind. Aborting (`signal`) stops
 * the run at once.
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
	const result: MigrationResult = { sessions: sessions.length, copied: 0, verified: 0, failed: 0, report: [] };
	for (const [position, source] of sessions.entries()) {
		options.signal?.throwIfAborted();
		const session = await migrateSession(from, to, source, options.signal);
		result.report.push(session);
		result.copied += session.copied;
		result.verified += session.verified;
		if (session.status === "failed") result.failed++;
		options.onProgress?.({
			sessionId: source.id,
			index: position + 1,
			total: sessions.length,
			copied: session.copied,
			copiedTotal: result.copied,
			session,
		});
	}
	return result;
}

async function migrateSession(
	from: SessionStore,
	to: SessionStore & SessionImportTarget,
	source: SessionMetadata,
	signal: AbortSignal | undefined,
): Promise<SessionMigration> {
	const id = source.id;
	const existed = await exists(to, id);
	const outcome: SessionMigration = { sessionId: id, status: "complete", copied: 0, verified: 0 };
	try {
		const have = await to.adoptSession(id, creationFactsOf(source));
		const gaps: SeqGap[] = [];
		let acknowledged: Set<number> | undefined;
		let previous = have;
		let batch: StoredRecord[] = [];
		const flush = async () => {
			await to.appendExact(id, batch, gaps.length > 0 ? { gaps } : {});
			outcome.copied += batch.length;
			batch = [];
		};
		for await (const record of from.readFrom(id, have + 1)) {
			if (record.seq > previous + 1) {
				// Seqs missing in the source: copied as a gap when its repair acknowledged them (else
				// appendExact refuses, saying to repair the source first).
				acknowledged ??= await acknowledgedGapEnds(from, id);
				if (acknowledged.has(record.seq)) gaps.push({ from: previous + 1, to: record.seq - 1 });
			}
			previous = Math.max(previous, record.seq);
			batch.push(record);
			if (batch.length >= BATCH) await flush();
		}
		if (batch.length > 0) await flush();
		const compared = await compareSessions(from, to, id);
		outcome.verified = compared.count;
		if (compared.replaced > 0) outcome.replaced = compared.replaced;
		if (gaps.length > 0) outcome.gaps = gaps;
		if (outcome.copied > 0) outcome.status = "copied";
		return outcome;
	} catch (error) {
		if (isAgentSessionError(error, "ABORTED") || signal?.aborted) throw error;
		// What this run created of the session goes again: the next run starts it afresh.
		if (!existed) await to.delete(id).catch(() => undefined);
		const code = isAgentSessionError(error) ? error.code : "STORAGE_FAILURE";
		return {
			sessionId: id,
			status: "failed",
			copied: 0,
			verified: 0,
			error: { code, message: error instanceof Error ? error.message : String(error) },
		};
	}
}

async function exists(store: SessionStore, id: string): Promise<boolean> {
	try {
		await store.metadata(id);
		return true;
	} catch (error) {
		if (isAgentSessionError(error, "SESSION_NOT_FOUND")) return false;
		throw error;
	}
}

/** The seqs that follow a gap the source's repair acknowledged (verify reports each gap at the record after it). */
async function acknowledgedGapEnds(store: SessionStore, id: string): Promise<Set<number>> {
	const [report] = await store.verify(id);
	const ends = new Set<number>();
	for (const problem of report?.problems ?? []) {
		if (problem.kind === "seq_gap" && problem.acknowledged && problem.seq !== undefined) ends.add(problem.seq);
	}
	return ends;
}

/**
 * Reads a session from both stores side by side; throws at the first record that differs. A
 * record the target holds with U+FFFD where the source has text it cannot hold counts as equal
 * (and as replaced). Returns the counts.
 */
async function compareSessions(
	from: SessionStore,
	to: SessionStore,
	id: string,
): Promise<{ count: number; replaced: number }> {
	const target = to.read(id)[Symbol.asyncIterator]();
	let count = 0;
	let replaced = 0;
	for await (const record of from.read(id)) {
		const next = await target.next();
		const portable = portableRecord(record);
		const want = serializeRecord(portable);
		const got = next.done ? undefined : serializeRecord(portableRecord(next.value));
		if (got !== want) {
			throw new AgentSessionError(
				"STORAGE_FAILURE",
				`@agent/session: session ${id} differs after the copy at seq ${record.seq} (${got === undefined ? "missing in the target" : "a different record in the target"}); the target kept what it had — inspect it, delete the session there, and run migrate again`,
			);
		}
		if (portable !== record && serializeRecord(next.value as StoredRecord) !== serializeRecord(record)) replaced++;
		count++;
	}
	const extra = await target.next();
	if (!extra.done) {
		throw new AgentSessionError(
			"STORAGE_FAILURE",
			`@agent/session: session ${id} has more records in the target than in the source (from seq ${extra.value.seq}); it is not a copy of the source`,
		);
	}
	return { count, replaced };
}
