import {
	type AcceptedTurn,
	type AppendOptions,
	type AppendResult,
	assertSessionId,
	type CreateSessionOptions,
	checkCreateOptions,
	checkIdentityKey,
	checkLabel,
	checkListOptions,
	checkName,
	checkSearchArgs,
	checkSeconds,
	cloneMetadata,
	contextOf,
	DeferredSessions,
	type ForkOptions,
	isSideRecord,
	type JournaledTurn,
	type ListOptions,
	type ListPage,
	newMetadata,
	newSessionId,
	type OpenedSession,
	type OpenOptions,
	openInMemory,
	prepareBatch,
	type ReadOptions,
	type RecordInput,
	type SearchHit,
	type SearchOptions,
	type SeqGap,
	type SessionImportTarget,
	type SessionLease,
	type SessionMetadata,
	type SessionStore,
	type StoreChange,
	type StoredRecord,
	type StoreWatcher,
	textMatcher,
	type VerifyReport,
	verifyPasses,
} from "@agent/session-format";
import pg from "pg";
import { TurnJournal } from "./accepted-turns.js";
import { watchAppends } from "./append-watch.js";
import { boundedRead } from "./bounded-read.js";
import { invalidArgument, storageFailure } from "./errors.js";
import { forkSession } from "./fork.js";
import { PgLease } from "./lease.js";
import { listPage } from "./list.js";
import { migrate } from "./migrations.js";
import { findRecord, openingRows, walkRows } from "./read-path.js";
import { type Db, decodeRow, jsonbText, type RecordRow, rowsForward } from "./rows.js";
import { searchRows } from "./search.js";
import { insertRecords, insertSession, loadMetadata, saveMetadata, where } from "./session-rows.js";
import { verifySession } from "./verify.js";
import { type WriteTx, withWriteTx } from "./write-tx.js";

/** Above every seq a session can hold (seq is a PostgreSQL integer). */
const MAX_SEQ = 2_147_483_647;

export interface PgStoreOptions {
	/** postgres://user@host:port/database (or use `pool`). */
	url?: string;
	/** A pool of your own (the store does not end it on close). */
	pool?: pg.Pool;
	/** Connections for reads and writes (default 10). */
	maxConnections?: number;
	/**
	 * Connections kept for held leases (default 25): a lease holds one for as long as it is held
	 * (a turn, with its model call), so this many sessions' turns run at once on this instance;
	 * more wait for one, up to their waitMs. PostgreSQL's max_connections must allow every
	 * instance's maxConnections + maxLeases.
	 */
	maxLeases?: number;
	/** How long a writer waits for another's lease by default, in ms (default 10 000). */
	waitMs?: number;
	/**
	 * How long one statement of a search may run, in ms (default 15 000): PostgreSQL stops it
	 * (statement_timeout) and the search fails with a temporary STORAGE_FAILURE (HTTP 503).
	 */
	searchTimeoutMs?: number;
	/** Clock (tests). */
	now?: () => Date;
}

/**
 * The SessionStore contract over PostgreSQL: records as the exact record JSON of a session.jsonl
 * line in agent_records keyed (session_id, seq); metadata a cache in agent_sessions rebuilt from
 * them; one writer per session on every instance (a PostgreSQL advisory lock). Open it with
 * `openPgStore`, which applies the schema migrations first.
 */
export class PgSessionStore implements SessionStore, SessionImportTarget {
	private readonly deferred = new DeferredSessions();
	private readonly journal: TurnJournal;
	private readonly waitMs: number;
	private readonly searchTimeoutMs: number;
	private readonly now: () => Date;

	constructor(
		readonly pool: pg.Pool,
		private readonly ownsPool: boolean,
		options: PgStoreOptions = {},
		/** Where leases take their connections (see PgLease.acquire); the store ends it on close. */
		private readonly leasePool: pg.Pool = newPool({ ...pool.options, max: options.maxLeases ?? DEFAULT_MAX_LEASES }),
	) {
		this.journal = new TurnJournal(pool);
		this.waitMs = options.waitMs ?? 10_000;
		this.searchTimeoutMs = options.searchTimeoutMs ?? 15_000;
		this.now = options.now ?? (() => new Date());
	}

	async create(options: CreateSessionOptions = {}): Promise<SessionMetadata> {
		checkCreateOptions(options);
		const metadata = newMetadata(newSessionId(), options, this.now());
		if (options.deferred) {
			this.deferred.add(metadata);
			return cloneMetadata(metadata);
		}
		await this.db(`creating a session`, (db) => insertSession(db, metadata, metadata));
		return cloneMetadata(metadata);
	}

	async open(id: string, options: OpenOptions = {}): Promise<OpenedSession> {
		assertSessionId(id);
		const pending = this.deferred.get(id);
		if (pending) return openInMemory(pending.metadata, pending.records, options);
		return this.db(`opening session ${id}`, async (db) => {
			const read = { onProblem: options.onProblem };
			let header: RecordRow | undefined;
			let metadata: SessionMetadata;
			let walked: Awaited<ReturnType<typeof walkRows>>;
			if (options.leafSeq !== undefined) {
				metadata = await loadMetadata(db, id);
				const leafSeq = options.leafSeq;
				if (!Number.isInteger(leafSeq) || leafSeq < 0 || leafSeq > metadata.lastSeq) {
					throw invalidArgument(
						`cannot open session ${id} at seq ${String(leafSeq)}: it holds seqs 1..${metadata.lastSeq}`,
					);
				}
				walked = await walkRows(db, id, { leafSeq, stopAtCompaction: true }, read);
				if (walked.start === undefined && leafSeq > 0) {
					throw invalidArgument(`cannot open session ${id} at seq ${leafSeq}: no readable record has that seq`);
				}
			} else {
				// The active leaf is the log's last record: the metadata, the newest rows and the header in one statement.
				const opening = await openingRows(db, id);
				header = opening.header;
				metadata = opening.metadata ?? (await loadMetadata(db, id));
				const walk = (leafSeq: number, firstPage?: readonly RecordRow[]) =>
					walkRows(db, id, { leafSeq, stopAtCompaction: true, leafFallsBack: true }, read, firstPage);
				walked = await walk(MAX_SEQ, opening.newest);
				// A writer appended in between (a rebuilt cache): the path the metadata describes.
				if ((walked.start?.seq ?? 0) > metadata.lastSeq) walked = await walk(metadata.lastSeq);
			}
			const path = walked.items;
			const first =
				path[0]?.seq === 1 ? path[0] : header ? decodeRow(header, {}, where(id)) : await findRecord(db, id, 1);
			return { metadata, path, context: contextOf(path, first, metadata, options) };
		});
	}

	async append(id: string, records: readonly RecordInput[], options: AppendOptions = {}): Promise<AppendResult> {
		assertSessionId(id);
		options.signal?.throwIfAborted();
		if (this.deferred.has(id)) {
			const now = this.now().toISOString();
			const held = this.deferred.hold(id, (metadata) => prepareBatch(metadata, records, now));
			if (held.firstReply) await this.materialize(id);
			return { records: held.records, metadata: held.metadata };
		}
		return this.write(id, options.waitMs, (tx) => tx.append(records));
	}

	read(id: string, options: ReadOptions = {}): AsyncIterable<StoredRecord> {
		return this.readFrom(id, 1, options);
	}

	readFrom(id: string, fromSeq: number, options: ReadOptions = {}): AsyncIterable<StoredRecord> {
		assertSessionId(id);
		if (!Number.isInteger(fromSeq)) throw invalidArgument(`readFrom needs a whole seq, got ${fromSeq}`);
		const pending = this.deferred.get(id);
		const pool = this.pool;
		return (async function* () {
			if (pending) {
				yield* pending.records.filter((record) => record.seq >= fromSeq);
				return;
			}
			await loadMetadata(pool, id).catch((error: unknown) => {
				throw storageFailure(`reading session ${id}`, error);
			});
			const pages = rowsForward(pool, id, fromSeq);
			for (;;) {
				let page: IteratorResult<RecordRow[]>;
				try {
					page = await pages.next();
				} catch (error) {
					throw storageFailure(`reading session ${id}`, error);
				}
				if (page.done) return;
				options.signal?.throwIfAborted();
				for (const row of page.value) {
					const record = decodeRow(row, options, where(id));
					if (record) yield record;
				}
			}
		})();
	}

	async tail(id: string, n: number, options: ReadOptions = {}): Promise<StoredRecord[]> {
		assertSessionId(id);
		if (!Number.isInteger(n) || n < 0) throw invalidArgument(`tail needs a whole number of records >= 0, got ${n}`);
		const pending = this.deferred.get(id);
		if (pending) return n === 0 ? [] : pending.records.slice(-n);
		return this.db(`reading the tail of session ${id}`, async (db) => {
			await loadMetadata(db, id);
			if (n === 0) return [];
			const { rows } = await db.query<RecordRow>(
				"SELECT seq, line FROM agent_records WHERE session_id = $1 ORDER BY seq DESC LIMIT $2",
				[id, n],
			);
			return rows
				.reverse()
				.map((row) => decodeRow(row, options, where(id)))
				.filter((record): record is StoredRecord => record !== undefined);
		});
	}

	async list(options: ListOptions = {}): Promise<ListPage> {
		checkListOptions(options);
		return this.db("listing sessions", (db) => listPage(db, options));
	}

	async metadata(id: string): Promise<SessionMetadata> {
		assertSessionId(id);
		const pending = this.deferred.get(id);
		if (pending) return pending.metadata;
		return this.db(`reading session ${id}`, (db) => loadMetadata(db, id));
	}

	async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
		checkSearchArgs(query, options);
		const matcher = textMatcher(query);
		const bounds = { timeoutMs: this.searchTimeoutMs, signal: options.signal };
		return boundedRead(this.pool, "searching message text", bounds, (client) => searchRows(client, matcher, options));
	}

	async lease(id: string, options: { waitMs?: number; signal?: AbortSignal } = {}): Promise<SessionLease> {
		await this.materialized(id);
		return PgLease.acquire(this.leasePool, this.pool, id, options.waitMs ?? this.waitMs, this.now);
	}

	async fork(id: string, options: ForkOptions = {}): Promise<SessionMetadata> {
		await this.materialized(id);
		if (options.name !== undefined) checkName(options.name);
		return this.transaction(`forking session ${id}`, (client) => forkSession(client, id, options, this.now()));
	}

	async branch(id: string, atSeq: number): Promise<SessionMetadata> {
		await this.materialized(id);
		const result = await this.write(id, undefined, async (tx) => {
			const lastSeq = tx.current.lastSeq;
			if (!Number.isInteger(atSeq) || atSeq < 1 || atSeq > lastSeq) {
				throw invalidArgument(
					`cannot branch session ${id} at seq ${atSeq}: it holds seqs 1..${lastSeq}; pick one of those`,
				);
			}
			const target = await tx.findRecord(atSeq);
			if (!target)
				throw invalidArgument(`cannot branch session ${id} at seq ${atSeq}: no readable record has that seq`);
			if (isSideRecord(target)) {
				throw invalidArgument(
					`cannot branch session ${id} at seq ${atSeq}: it is a ${target.recordType} record, which belongs to no branch; pick a message`,
				);
			}
			if (atSeq === (tx.current.leafSeq ?? lastSeq)) return { records: [], metadata: cloneMetadata(tx.current) };
			return tx.append([{ recordType: "leaf_change", parentSeq: atSeq }]);
		});
		return result.metadata;
	}

	async rename(id: string, name: string): Promise<SessionMetadata> {
		checkName(name);
		await this.materialized(id);
		return (await this.write(id, undefined, (tx) => tx.append([{ recordType: "session_info", name }]))).metadata;
	}

	async label(id: string, targetSeq: number, label: string): Promise<SessionMetadata> {
		checkLabel(label);
		await this.materialized(id);
		const result = await this.write(id, undefined, async (tx) => {
			const lastSeq = tx.current.lastSeq;
			if (!Number.isInteger(targetSeq) || targetSeq < 1 || targetSeq > lastSeq) {
				throw invalidArgument(`cannot label seq ${targetSeq} of session ${id}: it holds seqs 1..${lastSeq}`);
			}
			return tx.append([{ recordType: "label", targetSeq, label }]);
		});
		return result.metadata;
	}

	archive(id: string): Promise<SessionMetadata> {
		return this.appendUnless(id, (m) => m.archivedAt !== undefined, { recordType: "archive_change", archived: true });
	}

	unarchive(id: string): Promise<SessionMetadata> {
		return this.appendUnless(id, (m) => m.archivedAt === undefined, { recordType: "archive_change", archived: false });
	}

	async addUptime(id: string, seconds: number): Promise<SessionMetadata> {
		checkSeconds(seconds);
		return this.appendUnless(id, () => seconds === 0, { recordType: "uptime", seconds });
	}

	/** SessionImportTarget: session `id` with these creation facts, unless it exists; its last seq. */
	async adoptSession(id: string, facts: SessionMetadata): Promise<number> {
		assertSessionId(id);
		return this.db(`adopting session ${id}`, async (db) => {
			const metadata = { ...cloneMetadata(facts), id, lastSeq: 0, logBytes: 0 };
			await db.query(
				"INSERT INTO agent_sessions (id, created, metadata, sort_ms) VALUES ($1, $2, $2, 0) ON CONFLICT (id) DO NOTHING",
				[id, jsonbText(metadata)],
			);
			const { rows } = await db.query<{ last_seq: number; metadata: SessionMetadata | null }>(
				"SELECT last_seq, metadata FROM agent_sessions WHERE id = $1",
				[id],
			);
			if (rows[0]?.last_seq === 0 && rows[0].metadata !== null) await saveMetadata(db, rows[0].metadata);
			return rows[0]?.last_seq ?? 0;
		});
	}

	/** SessionImportTarget: records exactly as given, in one transaction under the lock; their seqs continue the log. */
	async appendExact(
		id: string,
		records: readonly StoredRecord[],
		options: { gaps?: readonly SeqGap[] } = {},
	): Promise<void> {
		await this.materialized(id);
		await this.write(id, undefined, (tx) => tx.appendExact(records, options.gaps));
	}

	/** Deletes the session and its records in one transaction under its lock: readers see it whole or not at all. */
	async delete(id: string): Promise<void> {
		assertSessionId(id);
		if (this.deferred.delete(id)) return;
		await this.write(id, undefined, async (tx) => {
			await tx.client.query("DELETE FROM agent_sessions WHERE id = $1", [id]);
			await tx.client.query("DELETE FROM agent_leases WHERE session_id = $1", [id]);
		});
	}

	async findByIdentity(identityKey: string): Promise<SessionMetadata | undefined> {
		checkIdentityKey(identityKey);
		return (await this.list({ identityKey, limit: 1 })).sessions[0];
	}

	/** The turn journal (accepted-turns.ts); a deferred session, which keeps nothing before its first reply, notes nothing. */
	async noteAcceptedTurn(id: string, turn: AcceptedTurn): Promise<void> {
		if (!this.deferred.has(id)) await this.journal.note(id, turn);
	}

	acceptedTurns(id: string): Promise<JournaledTurn[]> {
		return this.journal.list(id);
	}

	forgetAcceptedTurn(id: string, turnId: string): Promise<void> {
		return this.journal.forget(id, turnId);
	}

	async verify(id?: string): Promise<VerifyReport[]> {
		if (id !== undefined) {
			assertSessionId(id);
			const pending = this.deferred.get(id);
			if (pending) return [{ sessionId: id, ok: true, problems: [], records: pending.records.length, bytes: 0 }];
			return [await this.db(`verifying session ${id}`, async (db) => (await verifySession(db, id)).report)];
		}
		return this.db("verifying sessions", async (db) => {
			const { rows } = await db.query<{ id: string }>("SELECT id FROM agent_sessions ORDER BY id");
			const reports: VerifyReport[] = [];
			for (const row of rows) reports.push((await verifySession(db, row.id)).report);
			return reports;
		});
	}

	/** Rebuilds the metadata cache from the records (rows are never damaged halfway: nothing to acknowledge). */
	async repair(id: string): Promise<VerifyReport> {
		await this.materialized(id);
		return this.write(id, undefined, async (tx) => {
			const outcome = await verifySession(tx.client, id);
			await tx.replaceMetadata(outcome.rebuilt);
			const report: VerifyReport = { ...outcome.report, repaired: true };
			report.problems = report.problems.filter((problem) => !problem.kind.startsWith("metadata_"));
			report.ok = verifyPasses(report.problems);
			return report;
		});
	}

	/**
	 * Claims one tick of a scheduled job for this instance: true for exactly one of the instances
	 * that ask about the same job and tick (a row keyed by both; the others find it taken), so each
	 * job runs once per tick however many instances schedule it.
	 */
	async claimJobTick(jobId: string, tick: Date, instance: string): Promise<boolean> {
		return this.db(`claiming job ${jobId}`, async (db) => {
			const result = await db.query(
				"INSERT INTO agent_job_ticks (job_id, tick, instance) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
				[jobId, tick, instance],
			);
			return result.rowCount === 1;
		});
	}

	/** Reports every append committed to the database, by any process or instance (append-watch.ts). */
	async watch(onChange: (change: StoreChange) => void): Promise<StoreWatcher> {
		const url = this.connectionString;
		if (url === undefined) {
			throw invalidArgument(
				"watch needs a store opened with a URL (it LISTENs on a connection of its own), not with a pool",
			);
		}
		return watchAppends(url, (id) => this.metadata(id), onChange);
	}

	/** The database this store is on (for the event relay's own connections). */
	get connectionString(): string | undefined {
		return (this.pool as unknown as { options?: { connectionString?: string } }).options?.connectionString;
	}

	/** Ends the store's pool (when it made it). */
	async close(): Promise<void> {
		await this.journal.close();
		await this.leasePool.end();
		if (this.ownsPool) await this.pool.end();
	}

	private async appendUnless(
		id: string,
		already: (metadata: SessionMetadata) => boolean,
		record: RecordInput,
	): Promise<SessionMetadata> {
		await this.materialized(id);
		return this.write(id, undefined, async (tx) =>
			already(tx.current) ? cloneMetadata(tx.current) : (await tx.append([record])).metadata,
		);
	}

	/** One write transaction on a pooled connection, under the session's lock. */
	private async write<T>(id: string, waitMs: number | undefined, work: (tx: WriteTx) => Promise<T>): Promise<T> {
		assertSessionId(id);
		const client = await this.connect(`writing to session ${id}`);
		try {
			return await withWriteTx(client, this.pool, id, { waitMs: waitMs ?? this.waitMs, now: this.now }, work);
		} finally {
			client.release();
		}
	}

	/** A plain transaction on a pooled connection. */
	private async transaction<T>(what: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
		const client = await this.connect(what);
		try {
			await client.query("BEGIN");
			const result = await work(client);
			await client.query("COMMIT");
			return result;
		} catch (error) {
			await client.query("ROLLBACK").catch(() => undefined);
			throw storageFailure(what, error);
		} finally {
			client.release();
		}
	}

	private async connect(what: string): Promise<pg.PoolClient> {
		try {
			return await this.pool.connect();
		} catch (error) {
			throw storageFailure(`${what}: connecting to PostgreSQL`, error);
		}
	}

	private async db<T>(what: string, work: (db: Db) => Promise<T>): Promise<T> {
		try {
			return await work(this.pool);
		} catch (error) {
			throw storageFailure(what, error);
		}
	}

	/** Writes a deferred session out (its first assistant message came, or an operation needs it stored). */
	private async materialize(id: string): Promise<void> {
		const entry = this.deferred.take(id);
		if (!entry) return;
		try {
			await this.transaction(`storing deferred session ${id}`, async (client) => {
				await insertSession(client, entry.created, entry.created);
				await insertRecords(client, id, entry.records, entry.lines);
				await saveMetadata(client, entry.metadata);
			});
		} catch (error) {
			this.deferred.restore(entry);
			throw error;
		}
	}

	private async materialized(id: string): Promise<void> {
		assertSessionId(id);
		if (this.deferred.has(id)) await this.materialize(id);
	}
}

/** Opens a PostgreSQL store: connects, applies the schema migrations (safe when instances start at once). */
export async function openPgStore(options: PgStoreOptions): Promise<PgSessionStore> {
	const pool = options.pool ?? newPool({ connectionString: options.url, max: options.maxConnections ?? 10 });
	try {
		await migrate(pool);
	} catch (error) {
		if (!options.pool) await pool.end().catch(() => undefined);
		throw error;
	}
	return new PgSessionStore(pool, options.pool === undefined, options);
}

const DEFAULT_MAX_LEASES = 25;

/** A pool of this store's: named connections, errors of dead connections kept from crashing the process. */
function newPool(config: pg.PoolConfig): pg.Pool {
	const pool = new pg.Pool({
		...config,
		application_name: "agent-sessions",
		// A CLI command ends when its work does: idle connections do not hold the process open.
		allowExitOnIdle: true,
	});
	// A connection that dies (database restart, a killed backend) fails the statements on it, which
	// callers see as STORAGE_FAILURE; its 'error' event must not also crash the process.
	pool.on("error", () => undefined);
	pool.on("connect", (client) => client.on("error", () => undefined));
	return pool;
}
