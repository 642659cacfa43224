import {
	type AppendResult,
	type LeaseHolder,
	prepareBatch,
	type RecordInput,
	type SessionLease,
	type SessionMetadata,
	type SessionRecord,
	serializeRecord,
} from "@agent/session-format";
import { applyRecord, cloneMetadata } from "@agent/session-format/store-kit";
import type { Pool, PoolClient } from "pg";
import {
	isLockTimeout,
	leaseConnectionLost,
	leaseReleased,
	leasesExhausted,
	locked,
	notFound,
	storageFailure,
} from "./errors.js";
import { lockAndRecordHolder, readHolder, recordHolder } from "./holder.js";
import { LOCK_KEY_SQL } from "./rows.js";
import { lineBytes, writeGuardedAppend } from "./session-rows.js";
import { EVENTS_CHANNEL, type WriteTx, withWriteTx } from "./write-tx.js";

/** The lock_timeout each lease connection was last set to: set again only when a wait differs. */
const lockTimeouts = new WeakMap<PoolClient, number>();

/**
 * A held single-writer lease: a session-level advisory lock held on a connection of its own.
 * Why an advisory lock and not a lease row with a fencing token: the lock and every write through
 * the lease share one connection, so a write can never outlive the lock — when the holder dies or
 * is cut off, PostgreSQL ends its connection, releases the lock with it (within seconds, by TCP
 * keepalive at worst), and the dead holder cannot write any more: its writes went through that
 * connection. A fencing token would guard the same thing with a check on every append and a
 * timeout to tune; here the database does it.
 */
export class PgLease implements SessionLease {
	private released = false;
	/** The connection died, and the lock with it. */
	private lost = false;
	/**
	 * The session's metadata as of this lease's last write: nobody else writes the session while the
	 * lease holds its lock, so an append needs no read first (see append). Undefined: read it.
	 */
	private known: SessionMetadata | undefined;
	private queue: Promise<unknown> = Promise.resolve();
	/** Marks the lease lost when its connection fails; removed on release (the connection goes back to the pool). */
	private readonly onConnectionError = () => {
		this.lost = true;
	};

	private constructor(
		readonly sessionId: string,
		readonly holder: LeaseHolder,
		private readonly client: PoolClient,
		private readonly pool: Pool,
		private readonly now: () => Date,
	) {}

	/**
	 * Takes the lease of session `id`, waiting up to waitMs for another holder. The lock's
	 * connection comes from `leases`, a pool of its own: a held lease keeps its connection for the
	 * whole turn, and turns holding every connection of the pool their reads and writes go through
	 * (`pool`) would wait on each other for ever.
	 */
	static async acquire(leases: Pool, pool: Pool, id: string, waitMs: number, now: () => Date): Promise<PgLease> {
		const started = Date.now();
		const client = await connectWithin(leases, id, waitMs);
		let locked_ = false;
		try {
			let holder: LeaseHolder;
			let known: SessionMetadata | undefined;
			if (waitMs <= 0) {
				const exists = await client.query("SELECT 1 FROM agent_sessions WHERE id = $1", [id]);
				if (exists.rowCount === 0) throw notFound(id);
				const { rows } = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${LOCK_KEY_SQL}) AS ok`, [
					id,
				]);
				if (!rows[0]?.ok) throw locked(id, await readHolder(pool, id), 0);
				locked_ = true;
				holder = await recordHolder(client, id);
			} else {
				// The wait is bounded by lock_timeout, left set on this lease connection (only leases use them).
				const timeout = Math.ceil(waitMs);
				if (lockTimeouts.get(client) !== timeout) {
					await client.query(`SET lock_timeout = ${timeout}`);
					lockTimeouts.set(client, timeout);
				}
				const taken = await lockAndRecordHolder(client, id);
				if (taken === undefined) throw notFound(id);
				locked_ = true;
				holder = taken.holder;
				known = taken.metadata ?? undefined;
			}
			const lease = new PgLease(id, holder, client, pool, now);
			lease.known = known;
			client.on("error", lease.onConnectionError);
			return lease;
		} catch (error) {
			// A session-level lock outlives the statement that failed after taking it: give it back
			// unless the wait for it timed out (then it was never taken).
			if (locked_ || !isLockTimeout(error)) {
				await client.query(`SELECT pg_advisory_unlock(${LOCK_KEY_SQL})`, [id]).catch(() => undefined);
			}
			client.release();
			if (isLockTimeout(error)) throw locked(id, await readHolder(pool, id), Date.now() - started);
			throw storageFailure(`taking the lease of session ${id}`, error);
		}
	}

	/**
	 * Appends through the lease: as one guarded statement from the metadata the lease knows (one
	 * round trip, committed on its own), or, when it knows none, when the batch holds a compaction
	 * (checked against the path), or when the session changed after all, in a write transaction.
	 */
	append(records: readonly RecordInput[]): Promise<AppendResult> {
		return this.serially(async () => {
			const known = this.known;
			if (known !== undefined && !records.some((record) => record?.recordType === "compaction")) {
				const fast = await this.guarded(() => this.appendKnown(known, records));
				if (fast) return fast;
			}
			return this.transaction((tx) => tx.append(records));
		});
	}

	/** The guarded single-statement append (see append); undefined when the session changed meanwhile. */
	private async appendKnown(known: SessionMetadata, inputs: readonly RecordInput[]): Promise<AppendResult | undefined> {
		let records: SessionRecord[];
		try {
			records = prepareBatch(known, inputs, this.now().toISOString());
		} catch {
			// Judged against what may be stale (see lockAndRecordHolder): the transaction judges again.
			return undefined;
		}
		if (records.length === 0) return { records, metadata: cloneMetadata(known) };
		const lines = records.map(serializeRecord);
		const next = cloneMetadata(known);
		for (const record of records) applyRecord(next, record);
		next.logBytes = known.logBytes + lineBytes(lines);
		this.known = undefined;
		if (!(await writeGuardedAppend(this.client, records, lines, next, EVENTS_CHANNEL, known.lastSeq))) return undefined;
		this.known = next;
		return { records, metadata: cloneMetadata(next) };
	}

	/** Runs one write transaction through the lease (one at a time, in call order). */
	run<T>(work: (tx: WriteTx) => Promise<T>): Promise<T> {
		return this.serially(() => this.transaction(work));
	}

	/** One write transaction; the lease knows the session's metadata after it. */
	private transaction<T>(work: (tx: WriteTx) => Promise<T>): Promise<T> {
		this.known = undefined;
		return this.guarded(() =>
			withWriteTx(this.client, this.pool, this.sessionId, { waitMs: 0, holding: true, now: this.now }, async (tx) => {
				const result = await work(tx);
				this.known = cloneMetadata(tx.current);
				return result;
			}),
		);
	}

	/** `work`, after the calls before it, on a lease still held. */
	private serially<T>(work: () => Promise<T>): Promise<T> {
		const next = this.queue.then(() => {
			if (this.released) throw leaseReleased(this.sessionId);
			if (this.lost) throw leaseConnectionLost(this.sessionId);
			return work();
		});
		this.queue = next.catch(() => undefined);
		return next;
	}

	/** `work` on the lease's connection; a failure that lost the connection ends the lease (the lock went with it). */
	private async guarded<T>(work: () => Promise<T>): Promise<T> {
		try {
			return await work();
		} catch (error) {
			this.known = undefined;
			const failure = storageFailure(`writing to session ${this.sessionId}`, error);
			if (failure.code === "STORAGE_FAILURE" && (this.lost || !this.alive())) {
				this.released = true;
				this.client.off("error", this.onConnectionError);
				this.client.release(error as Error);
				throw leaseConnectionLost(this.sessionId, error);
			}
			throw failure;
		}
	}

	private alive(): boolean {
		const connection = (this.client as unknown as { connection?: { stream?: { destroyed?: boolean } } }).connection;
		return connection?.stream?.destroyed !== true;
	}

	async release(): Promise<void> {
		await this.queue;
		if (this.released) return;
		this.released = true;
		this.client.off("error", this.onConnectionError);
		if (this.lost) {
			this.client.release(new Error("connection lost"));
			return;
		}
		try {
			await this.client.query({
				name: "agent_lease_give_back",
				text: `WITH holder AS (DELETE FROM agent_leases WHERE session_id = $1 AND backend_pid = pg_backend_pid())
				 SELECT pg_advisory_unlock(${LOCK_KEY_SQL})`,
				values: [this.sessionId],
			});
			this.client.release();
		} catch (error) {
			// The connection is gone, and the lock with it.
			this.client.release(error as Error);
		}
	}
}

/**
 * A connection of the lease pool, waiting for one at most `waitMs` (without limit when it is 0 or
 * less: a try-lock still needs a connection to ask with). A connection that arrives after the
 * wait gave up goes back to the pool.
 */
async function connectWithin(leases: Pool, id: string, waitMs: number): Promise<PoolClient> {
	const pending = leases.connect();
	let timer: NodeJS.Timeout | undefined;
	const gaveUp = new Promise<undefined>((resolve) => {
		if (waitMs > 0) timer = setTimeout(() => resolve(undefined), waitMs);
	});
	try {
		const client = await Promise.race([pending, gaveUp]);
		if (client) return client;
		pending.then((late) => late.release()).catch(() => undefined);
		throw leasesExhausted(id, leases.options.max ?? 0, waitMs);
	} catch (error) {
		throw storageFailure(`connecting for the lease of session ${id}`, error);
	} finally {
		clearTimeout(timer);
	}
}
