import {
	type EventRelay,
	type ForkOptions,
	type ListOptions,
	type ListPage,
	newSessionId,
	type OpenedSession,
	type OpenOptions,
	type ReadOptions,
	type RelayedEvents,
	type SearchHit,
	type SearchOptions,
	type SessionLease,
	type SessionMetadata,
	type StoreChange,
	type StoredRecord,
	type StoreWatcher,
} from "@agent/session-format";
import {
	type HeldSession,
	type LeaseWait,
	type LogCheck,
	type SessionBackend,
	textMatcher,
} from "@agent/session-format/store-kit";
import type pg from "pg";
import { TurnJournal } from "./accepted-turns.js";
import { watchAppends } from "./append-watch.js";
import { boundedRead } from "./bounded-read.js";
import { invalidArgument, PACKAGE } from "./errors.js";
import { startEventRelay } from "./event-relay.js";
import { forkSession } from "./fork.js";
import { pruneJobTicks } from "./job-ticks.js";
import { PgLease } from "./lease.js";
import { listPage } from "./list.js";
import { openSession } from "./open-session.js";
import { connectionStringOf, DEFAULT_MAX_LEASES, newPool, type PgStoreOptions, withoutPassword } from "./options.js";
import { connect, onPool, transaction } from "./pool-work.js";
import { readRows } from "./read-path.js";
import { decodeRow, type RecordRow } from "./rows.js";
import { searchRows } from "./search.js";
import { adoptSession, insertRecords, insertSession, loadMetadata, saveMetadata, where } from "./session-rows.js";
import { verifySession } from "./verify.js";
import { type WriteTx, withWriteTx } from "./write-tx.js";

/**
 * The PostgreSQL SessionBackend: records as the exact record JSON of a session.jsonl line in
 * agent_records keyed (session_id, seq); metadata a cache in agent_sessions rebuilt from them; one
 * writer per session on every instance (a PostgreSQL advisory lock). PgSessionStore (store.ts) is
 * the store shell over it.
 */
export class PgBackend implements SessionBackend {
	readonly name = PACKAGE;
	readonly journal: TurnJournal;
	readonly leasePool: pg.Pool;
	private readonly waitMs: number;
	private readonly searchTimeoutMs: number;
	readonly now: () => Date;
	declare readonly relayEvents?: <E>(events: RelayedEvents<E>) => Promise<EventRelay>;

	constructor(
		readonly pool: pg.Pool,
		private readonly ownsPool: boolean,
		options: PgStoreOptions = {},
		/** Where leases take their connections (see PgLease.acquire); ended on close. */
		leasePool?: pg.Pool,
	) {
		this.leasePool = leasePool ?? newPool({ ...pool.options, max: options.maxLeases ?? DEFAULT_MAX_LEASES });
		this.journal = new TurnJournal(pool);
		this.waitMs = options.waitMs ?? 10_000;
		this.searchTimeoutMs = options.searchTimeoutMs ?? 15_000;
		this.now = options.now ?? (() => new Date());
		// The relay listens and publishes on connections of its own: only a store opened with a URL has one.
		const url = this.connectionString;
		if (url !== undefined) {
			(this as { relayEvents?: PgBackend["relayEvents"] }).relayEvents = (events) => startEventRelay(url, events);
		}
	}

	/** The database this store is on (for the event relay's and the watch's own connections). */
	get connectionString(): string | undefined {
		return connectionStringOf(this.pool);
	}

	describe(): string {
		return withoutPassword(this.connectionString);
	}

	async create(make: (id: string) => SessionMetadata): Promise<SessionMetadata> {
		const metadata = make(newSessionId());
		await onPool(this.pool, "creating a session", (db) => insertSession(db, metadata, metadata));
		return metadata;
	}

	/** Writes a deferred session out in one transaction (its first assistant message came, or an operation needs it stored). */
	materialize(held: HeldSession): Promise<void> {
		const id = held.metadata.id;
		return transaction(this.pool, `storing deferred session ${id}`, async (client) => {
			await insertSession(client, held.created, held.created);
			await insertRecords(client, id, held.records, held.lines);
			await saveMetadata(client, held.metadata);
		});
	}

	open(id: string, options: OpenOptions): Promise<OpenedSession> {
		return onPool(this.pool, `opening session ${id}`, (db) => openSession(db, id, options));
	}

	read(id: string, fromSeq: number, options: ReadOptions): AsyncIterable<StoredRecord> {
		return readRows(this.pool, id, fromSeq, options);
	}

	tail(id: string, n: number, options: ReadOptions): Promise<StoredRecord[]> {
		return onPool(this.pool, `reading the tail of session ${id}`, async (db) => {
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

	list(options: ListOptions): Promise<ListPage> {
		return onPool(this.pool, "listing sessions", (db) => listPage(db, options));
	}

	metadata(id: string): Promise<SessionMetadata> {
		return onPool(this.pool, `reading session ${id}`, (db) => loadMetadata(db, id));
	}

	search(query: string, options: SearchOptions): Promise<SearchHit[]> {
		const matcher = textMatcher(query);
		const bounds = { timeoutMs: this.searchTimeoutMs, signal: options.signal };
		return boundedRead(this.pool, "searching message text", bounds, (client) => searchRows(client, matcher, options));
	}

	lease(id: string, wait: LeaseWait): Promise<SessionLease> {
		return PgLease.acquire(this.leasePool, this.pool, id, wait.waitMs ?? this.waitMs, this.now);
	}

	/** One write transaction on a pooled connection, under the session's lock. */
	async write<T>(id: string, wait: LeaseWait, work: (tx: WriteTx) => Promise<T>): Promise<T> {
		const client = await connect(this.pool, `writing to session ${id}`);
		try {
			return await withWriteTx(client, this.pool, id, { waitMs: wait.waitMs ?? this.waitMs, now: this.now }, work);
		} finally {
			client.release();
		}
	}

	fork(id: string, options: ForkOptions): Promise<SessionMetadata> {
		return transaction(this.pool, `forking session ${id}`, (client) => forkSession(client, id, options, this.now()));
	}

	/** Deletes the session and its records in one transaction under its lock: readers see it whole or not at all. */
	async delete(id: string): Promise<void> {
		await this.write(id, {}, async ({ client }) => {
			await client.query("DELETE FROM agent_sessions WHERE id = $1", [id]);
			await client.query("DELETE FROM agent_leases WHERE session_id = $1", [id]);
		});
	}

	adopt(id: string, facts: SessionMetadata): Promise<number> {
		return onPool(this.pool, `adopting session ${id}`, (db) => adoptSession(db, id, facts));
	}

	check(id: string): Promise<LogCheck> {
		return onPool(this.pool, `verifying session ${id}`, (db) => verifySession(db, id));
	}

	checkedIds(): Promise<string[]> {
		return onPool(this.pool, "verifying sessions", async (db) => {
			const { rows } = await db.query<{ id: string }>("SELECT id FROM agent_sessions ORDER BY id");
			return rows.map((row) => row.id);
		});
	}

	/**
	 * Claims one tick of a scheduled job for `instance`: true for exactly one of the instances that
	 * ask about the same job and tick (a row keyed by both; the others find it taken).
	 */
	/** Deletes the claims of ticks before `before` (job-ticks.ts). */
	pruneJobTicks(before: Date): Promise<number> {
		return pruneJobTicks(this, before);
	}

	claimJobTick(jobId: string, tick: Date, instance: string): Promise<boolean> {
		return onPool(this.pool, `claiming job ${jobId}`, async (db) => {
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

	/** Ends the connections this store made (a pool given to openPgStore stays open: it is the caller's). */
	async close(): Promise<void> {
		// Idle connections do not hold the process (allowExitOnIdle), so while they are being ended
		// nothing would: a script awaiting close could be cut off before it resolves.
		const holdOn = setInterval(() => undefined, 60_000);
		try {
			await this.journal.close();
			await this.leasePool.end();
			if (this.ownsPool) await this.pool.end();
		} finally {
			clearInterval(holdOn);
		}
	}
}
