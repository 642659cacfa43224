import pg from "pg";

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

export const DEFAULT_MAX_LEASES = 25;

/** A pool of this store's: named connections, errors of dead connections kept from crashing the process. */
export function newPool(config: pg.PoolConfig): pg.Pool {
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

/** The URL a pool connects to, if it was made with one. */
export function connectionStringOf(pool: pg.Pool): string | undefined {
	return (pool as unknown as { options?: { connectionString?: string } }).options?.connectionString;
}

/** A database URL without its password, for a start-up line. */
export function withoutPassword(url: string | undefined): string {
	if (url === undefined) return "PostgreSQL";
	try {
		const parsed = new URL(url);
		if (parsed.password) parsed.password = "***";
		return parsed.toString();
	} catch {
		return "PostgreSQL";
	}
}
