import type { SessionStore } from "@agent/session-format";
import { SessionShell } from "@agent/session-format/store-kit";
import type pg from "pg";
import { PgBackend } from "./backend.js";
import { migrate } from "./migrations.js";
import { newPool, type PgStoreOptions } from "./options.js";

export type { PgStoreOptions } from "./options.js";

/**
 * The SessionStore contract over PostgreSQL: the store shell of @agent/session-format
 * (createSessionStore) over PgBackend (backend.ts). Records are the exact record JSON of a
 * session.jsonl line in agent_records keyed (session_id, seq); metadata a cache in agent_sessions
 * rebuilt from them; one writer per session on every instance (a PostgreSQL advisory lock). Open
 * it with `openPgStore`, which applies the schema migrations first. Several instances over one
 * database share events (relayEvents, when opened with a URL) and claim job ticks (claimJobTick).
 */
export class PgSessionStore extends SessionShell {
	// PostgreSQL always keeps a turn journal, can watch and claims job ticks.
	declare readonly watch: NonNullable<SessionStore["watch"]>;
	declare readonly noteAcceptedTurn: NonNullable<SessionStore["noteAcceptedTurn"]>;
	declare readonly acceptedTurns: NonNullable<SessionStore["acceptedTurns"]>;
	declare readonly forgetAcceptedTurn: NonNullable<SessionStore["forgetAcceptedTurn"]>;
	declare readonly claimJobTick: NonNullable<SessionStore["claimJobTick"]>;
	declare readonly pruneJobTicks: NonNullable<SessionStore["pruneJobTicks"]>;
	/** The pool reads and writes go through. */
	readonly pool: pg.Pool;
	/** Where leases take their connections. */
	private readonly leasePool: pg.Pool;
	private readonly pg: PgBackend;

	/**
	 * A store over `pool` (whose schema is migrated: see openPgStore). `ownsPool`: close ends it.
	 * Leases take their connections from `leasePool` (default: a pool of options.maxLeases like
	 * `pool`), which close ends.
	 */
	constructor(pool: pg.Pool, ownsPool: boolean, options: PgStoreOptions = {}, leasePool?: pg.Pool) {
		const backend = new PgBackend(pool, ownsPool, options, leasePool);
		super(backend);
		this.pg = backend;
		this.pool = pool;
		this.leasePool = backend.leasePool;
	}

	/** The database this store is on, when it was opened with a URL. */
	get connectionString(): string | undefined {
		return this.pg.connectionString;
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
