import type pg from "pg";
import { storageFailure } from "./errors.js";
import type { Db } from "./rows.js";

/**
 * Work on the store's pool, any failure a STORAGE_FAILURE (or the AgentSessionError it raised
 * itself) that names `what`.
 */
export async function onPool<T>(pool: pg.Pool, what: string, work: (db: Db) => Promise<T>): Promise<T> {
	try {
		return await work(pool);
	} catch (error) {
		throw storageFailure(what, error);
	}
}

/** A connection of the pool, or a STORAGE_FAILURE that says the database could not be reached. */
export async function connect(pool: pg.Pool, what: string): Promise<pg.PoolClient> {
	try {
		return await pool.connect();
	} catch (error) {
		throw storageFailure(`${what}: connecting to PostgreSQL`, error);
	}
}

/** A plain transaction on a pooled connection: all of `work` or nothing. */
export async function transaction<T>(
	pool: pg.Pool,
	what: string,
	work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
	const client = await connect(pool, what);
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
