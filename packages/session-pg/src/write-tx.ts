import {
	assertSessionId,
	portableRecord,
	prepareBatch,
	type SeqGap,
	type SessionMetadata,
	type StoredRecord,
	serializeRecord,
} from "@agent/session-format";
import {
	applyRecord,
	type BackendWriter,
	checkCompactions,
	checkExactSeqs,
	cloneMetadata,
} from "@agent/session-format/store-kit";
import type { Pool, PoolClient } from "pg";
import { isLockTimeout, locked, storageFailure } from "./errors.js";
import { readHolder } from "./holder.js";
import { findRecord, readPath } from "./read-path.js";
import { LOCK_KEY_SQL } from "./rows.js";
import { lineBytes, loadMetadata, saveMetadata, writeAppend } from "./session-rows.js";
import { verifySession } from "./verify.js";

/** The channel every committed append is announced on (payload: {"id","lastSeq"}); server instances LISTEN to it. */
export const EVENTS_CHANNEL = "agent_session_appended";

/** What a write transaction can do while it holds the session's lock (a BackendWriter, on its connection). */
export interface WriteTx extends BackendWriter {
	readonly client: PoolClient;
	appendExact(records: readonly StoredRecord[], gaps?: readonly SeqGap[]): Promise<void>;
	replaceMetadata(metadata: SessionMetadata): Promise<void>;
}

export interface TxOptions {
	/** How long to wait for the session's lock; 0 fails at once. Ignored when `holding`. */
	waitMs: number;
	/** The connection holds the session's lease already (a session-level advisory lock). */
	holding?: boolean;
	now: () => Date;
}

/**
 * Runs `work` in one transaction holding the session's advisory lock (one writer per session, on
 * every instance: the lock is PostgreSQL's, and dies with the connection), its row locked too.
 * Seqs are assigned from the row read under the lock, the records and the new metadata are
 * written together, and the append is announced (NOTIFY, sent on commit). Nothing is
 * acknowledged before COMMIT returned; a failed transaction leaves nothing behind.
 */
export async function withWriteTx<T>(
	client: PoolClient,
	pool: Pool,
	id: string,
	options: TxOptions,
	work: (tx: WriteTx) => Promise<T>,
): Promise<T> {
	assertSessionId(id);
	const started = Date.now();
	try {
		// lock_timeout bounds the wait for the session's lock (a lease holder's); set with BEGIN, one round trip.
		const waits = !options.holding && options.waitMs > 0;
		await client.query(waits ? `BEGIN; SET LOCAL lock_timeout = ${Math.ceil(options.waitMs)}` : "BEGIN");
	} catch (error) {
		throw storageFailure(`beginning a write to session ${id}`, error);
	}
	try {
		if (!options.holding) await lockSession(client, id, options.waitMs);
		let metadata = await loadMetadata(client, id, true);
		const write = async <R extends StoredRecord>(
			records: R[],
		): Promise<{ records: R[]; metadata: SessionMetadata }> => {
			const lines = records.map(serializeRecord);
			const next = cloneMetadata(metadata);
			for (const record of records) applyRecord(next, record);
			next.logBytes = metadata.logBytes + lineBytes(lines);
			await writeAppend(client, records, lines, next, EVENTS_CHANNEL);
			metadata = next;
			return { records, metadata: cloneMetadata(next) };
		};
		const tx: WriteTx = {
			client,
			get current() {
				return metadata;
			},
			append: async (inputs) => {
				const records = prepareBatch(metadata, inputs, options.now().toISOString());
				if (records.length === 0) return { records, metadata: cloneMetadata(metadata) };
				await checkCompactions(records, (walk) => readPath(client, id, walk));
				return write(records);
			},
			appendExact: async (records, gaps) => {
				checkExactSeqs(id, metadata.lastSeq, records, gaps);
				// A record of a log written before the text rules is stored as PostgreSQL can hold it.
				if (records.length > 0) await write(records.map(portableRecord));
			},
			findRecord: (seq) => findRecord(client, id, seq),
			check: () => verifySession(client, id),
			replaceMetadata: async (rebuilt) => {
				metadata = cloneMetadata(rebuilt);
				await saveMetadata(client, metadata);
			},
		};
		const result = await work(tx);
		await client.query("COMMIT");
		return result;
	} catch (error) {
		await client.query("ROLLBACK").catch(() => undefined);
		if (isLockTimeout(error)) throw locked(id, await readHolder(pool, id), Date.now() - started);
		throw storageFailure(`writing to session ${id}`, error);
	}
}

/** Takes the session's transaction-level advisory lock, waiting up to waitMs (lock_timeout). */
async function lockSession(client: PoolClient, id: string, waitMs: number): Promise<void> {
	if (waitMs <= 0) {
		const { rows } = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock(${LOCK_KEY_SQL}) AS ok`, [
			id,
		]);
		if (!rows[0]?.ok) throw Object.assign(new Error("the session is locked"), { code: "55P03" });
		return;
	}
	// lock_timeout was set with BEGIN; it stays for the transaction (any later lock wait is also for this session).
	await client.query(`SELECT pg_advisory_xact_lock(${LOCK_KEY_SQL})`, [id]);
}
