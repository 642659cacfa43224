import type { AppendResult, LeaseHolder, RecordInput, SessionLease } from "@agent/session-format";
import type { Pool, PoolClient } from "pg";
import {
	isLockTimeout,
	leaseConnectionLost,
	leaseGone,
	leasesExhausted,
	locked,
	notFound,
	storageFailure,
} from "./errors.js";
import { readHolder, recordHolder } from "./holder.js";
import { LOCK_KEY_SQL } from "./rows.js";
import { type WriteTx, withWriteTx } from "./write-tx.js";

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
			const exists = await client.query("SELECT 1 FROM agent_sessions WHERE id = $1", [id]);
			if (exists.rowCount === 0) throw notFound(id);
			if (waitMs <= 0) {
				const { rows } = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${LOCK_KEY_SQL}) AS ok`, [
					id,
				]);
				if (!rows[0]?.ok) throw locked(id, await readHolder(pool, id), 0);
			} else {
				await client.query(`SET lock_timeout = ${Math.ceil(waitMs)}`);
				try {
					await client.query(`SELECT pg_advisory_lock(${LOCK_KEY_SQL})`, [id]);
				} finally {
					await client.query("SET lock_timeout = 0");
				}
			}
			locked_ = true;
			const holder = await recordHolder(client, id);
			const lease = new PgLease(id, holder, client, pool, now);
			client.on("error", lease.onConnectionError);
			return lease;
		} catch (error) {
			if (locked_) await client.query(`SELECT pg_advisory_unlock(${LOCK_KEY_SQL})`, [id]).catch(() => undefined);
			client.release();
			if (isLockTimeout(error)) throw locked(id, await readHolder(pool, id), Date.now() - started);
			throw storageFailure(`taking the lease of session ${id}`, error);
		}
	}

	append(records: readonly RecordInput[]): Promise<AppendResult> {
		return this.run((tx) => tx.append(records));
	}

	/** Runs one write transaction through the lease (one at a time, in call order). */
	run<T>(work: (tx: WriteTx) => Promise<T>): Promise<T> {
		const next = this.queue.then(async () => {
			if (this.released) throw leaseGone(this.sessionId, "was released");
			if (this.lost) throw leaseConnectionLost(this.sessionId);
			return withWriteTx(
				this.client,
				this.pool,
				this.sessionId,
				{ waitMs: 0, holding: true, now: this.now },
				work,
			).catch((error: unknown) => {
				// A lost connection took the lock with it: nothing more goes through this lease.
				if ((error as { code?: string }).code === "STORAGE_FAILURE" && (this.lost || !this.alive())) {
					this.released = true;
					this.client.off("error", this.onConnectionError);
					this.client.release(error as Error);
					throw leaseConnectionLost(this.sessionId, error);
				}
				throw error;
			});
		});
		this.queue = next.catch(() => undefined);
		return next;
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
			await this.client.query("DELETE FROM agent_leases WHERE session_id = $1 AND backend_pid = pg_backend_pid()", [
				this.sessionId,
			]);
			await this.client.query(`SELECT pg_advisory_unlock(${LOCK_KEY_SQL})`, [this.sessionId]);
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
