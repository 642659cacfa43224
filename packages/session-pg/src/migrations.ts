import type { Pool, PoolClient } from "pg";
import { storageFailure } from "./errors.js";
import { PACKAGE_VERSION, prepareSchemaBook, refuseNewerSchema } from "./schema-version.js";

/**
 * The schema, as numbered steps shipped in the package and applied on start. A step is never
 * edited once released: a change is a new step. Each runs in its own transaction with its row in
 * agent_schema_migrations, so a step is applied whole or not at all, and exactly once.
 */
export interface Migration {
	version: number;
	name: string;
	sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
	{
		version: 1,
		name: "sessions and records",
		sql: `
CREATE TABLE agent_sessions (
	id text COLLATE "C" PRIMARY KEY,
	-- The facts the session was created with: all it has until its first record carries them (S7.1).
	created jsonb NOT NULL,
	-- A cache of the records (metadata-derive): NULL means "rebuild from the records".
	metadata jsonb,
	-- The last seq written, updated in the transaction that writes the records.
	last_seq integer NOT NULL DEFAULT 0,
	-- Listing columns, derived from metadata with it: lastMessageAt in ms, archive state, filters.
	sort_ms bigint NOT NULL,
	archived boolean NOT NULL DEFAULT false,
	source text NOT NULL DEFAULT 'interactive',
	identity_key text,
	cwd text,
	name text
);
CREATE INDEX agent_sessions_listing ON agent_sessions (archived, sort_ms DESC, id DESC);
CREATE INDEX agent_sessions_identity ON agent_sessions (identity_key, sort_ms DESC, id DESC) WHERE identity_key IS NOT NULL;
CREATE INDEX agent_sessions_cwd ON agent_sessions (cwd, sort_ms DESC, id DESC) WHERE cwd IS NOT NULL;
CREATE INDEX agent_sessions_stale ON agent_sessions (id) WHERE metadata IS NULL;

CREATE TABLE agent_records (
	session_id text NOT NULL REFERENCES agent_sessions (id) ON DELETE CASCADE,
	seq integer NOT NULL,
	record_type text NOT NULL,
	-- The record exactly as a line of session.jsonl holds it (without the newline).
	line text NOT NULL,
	PRIMARY KEY (session_id, seq)
);
-- Resume finds the latest compaction without reading what it archived.
CREATE INDEX agent_records_compactions ON agent_records (session_id, seq) WHERE record_type = 'compaction';
CREATE INDEX agent_records_labels ON agent_records (session_id, seq) WHERE record_type = 'label';

-- Who holds a session's write lease (the lock itself is a PostgreSQL advisory lock): error messages name them.
CREATE TABLE agent_leases (
	session_id text PRIMARY KEY,
	pid integer NOT NULL,
	host text NOT NULL,
	since timestamptz NOT NULL,
	backend_pid integer NOT NULL
);
`,
	},
	{
		version: 2,
		name: "job ticks and large events",
		sql: `
-- One row per scheduled job run claimed: the instance that inserts it runs the tick, the others skip it.
CREATE TABLE agent_job_ticks (
	job_id text NOT NULL,
	tick timestamptz NOT NULL,
	instance text NOT NULL,
	claimed_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (job_id, tick)
);
-- Events too large for a NOTIFY payload (8000 bytes) travel by reference to a row here, kept briefly.
CREATE TABLE agent_event_payloads (
	id bigserial PRIMARY KEY,
	body text NOT NULL,
	created_at timestamptz NOT NULL DEFAULT now()
);
`,
	},
	{
		version: 3,
		name: "trigram search on names and ids",
		// pg_trgm ships with PostgreSQL (contrib) and is a trusted extension: a database owner may
		// create it. Where it is missing or not allowed, search stays a scan of the listing table.
		sql: `
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
		BEGIN
			CREATE EXTENSION IF NOT EXISTS pg_trgm;
			CREATE INDEX agent_sessions_name_search ON agent_sessions USING gin (name gin_trgm_ops);
			CREATE INDEX agent_sessions_id_search ON agent_sessions USING gin (id gin_trgm_ops);
		EXCEPTION WHEN insufficient_privilege THEN
			RAISE NOTICE 'agent-sessions: pg_trgm could not be created; search scans the sessions table';
		END;
	END IF;
END
$$;
`,
	},
	{
		version: 4,
		name: "trigram search on message text",
		// Message search (store.search) asks for the rows whose message content holds the query's
		// longest word (ILIKE '%word%'): a trigram index answers that without reading every record.
		// It indexes the line from its "content" key on (search.ts's MESSAGE_CONTENT_SQL, which must
		// stay this exact expression), not the whole line: the seq and timestamp before it add a
		// trigram key per record that every append would pay for and no search needs. Partial:
		// search reads messages only. Built where step 3 could create pg_trgm; on a large existing
		// table this build blocks writes while it runs.
		sql: `
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
		-- btree_gin (contrib, trusted like pg_trgm) lets the index lead with session_id, so that one
		-- session's rows holding a word are found without the other sessions' (search.ts's
		-- largeSessionRows); a search over all sessions uses its second column alone. Without it,
		-- the content alone is indexed.
		BEGIN
			IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'btree_gin') THEN
				RAISE insufficient_privilege;
			END IF;
			CREATE EXTENSION IF NOT EXISTS btree_gin;
			CREATE INDEX agent_records_message_search ON agent_records
				USING gin (session_id, (substring(line from position('"content":' in line))) gin_trgm_ops)
				WHERE record_type = 'message';
		EXCEPTION WHEN insufficient_privilege THEN
			CREATE INDEX agent_records_message_search ON agent_records
				USING gin ((substring(line from position('"content":' in line))) gin_trgm_ops)
				WHERE record_type = 'message';
		END;
	END IF;
END
$$;
`,
	},
	{
		version: 5,
		name: "identity and cwd indexes by hash",
		// A btree entry holds at most about 2,700 bytes: an identity key of 1,024 CJK characters (3
		// bytes each in UTF-8; FIELD_LIMITS.id allows it) or a long working directory did not fit, and
		// the insert failed. The indexes now hold the md5 of the value (list.ts and search.ts compare
		// md5(column) = md5($n) AND column = $n, so the index finds the rows and equality decides).
		sql: `
DROP INDEX IF EXISTS agent_sessions_identity;
DROP INDEX IF EXISTS agent_sessions_cwd;
CREATE INDEX agent_sessions_identity ON agent_sessions (md5(identity_key), sort_ms DESC, id DESC) WHERE identity_key IS NOT NULL;
CREATE INDEX agent_sessions_cwd ON agent_sessions (md5(cwd), sort_ms DESC, id DESC) WHERE cwd IS NOT NULL;
`,
	},
	{
		version: 6,
		name: "accepted turns",
		// The turn journal (accepted-turns.ts): a turn accepted (HTTP 202) and not yet recorded, with
		// the backend of its instance's presence connection as owner (alive while pg_stat_activity
		// shows that pid with that start time).
		sql: `
CREATE TABLE agent_accepted_turns (
	session_id text COLLATE "C" NOT NULL REFERENCES agent_sessions (id) ON DELETE CASCADE,
	turn_id text COLLATE "C" NOT NULL,
	accepted_at timestamptz NOT NULL,
	turn text NOT NULL,
	owner_pid integer NOT NULL,
	owner_start timestamptz NOT NULL,
	PRIMARY KEY (session_id, turn_id)
);
`,
	},
	{
		version: 7,
		name: "session creators",
		// The user that created a session (metadata.createdBy, a creation fact of its log) as a
		// column of the listing, so that a server's per-user listing and search are indexed queries.
		// Hashed as identity and cwd are (migration 5): the index holds md5 of the value.
		sql: `
ALTER TABLE agent_sessions ADD COLUMN created_by text;
UPDATE agent_sessions SET created_by = metadata->>'createdBy' WHERE metadata ? 'createdBy';
CREATE INDEX agent_sessions_created_by ON agent_sessions (md5(created_by), sort_ms DESC, id DESC) WHERE created_by IS NOT NULL;
`,
	},
];

/** Serializes migration across processes starting at once: a transaction-level advisory lock on this key. */
const MIGRATION_LOCK_KEY = 7_235_118_042;

/**
 * Brings the schema up to date: every step not yet applied, in order, under one advisory lock
 * (two instances starting at once: the second waits, then finds the steps applied). Idempotent.
 * Returns the versions applied now.
 */
export async function migrate(pool: Pool): Promise<number[]> {
	let client: PoolClient;
	try {
		client = await pool.connect();
	} catch (error) {
		throw storageFailure("connecting to PostgreSQL", error);
	}
	const applied: number[] = [];
	const known = MIGRATIONS.reduce((latest, step) => Math.max(latest, step.version), 0);
	try {
		await inTransaction(client, "the schema's bookkeeping", async () => {
			await prepareSchemaBook(client);
			await refuseNewerSchema(client, known);
		});
		for (const step of MIGRATIONS) {
			const done = await inTransaction(client, `schema migration ${step.version} (${step.name})`, async () => {
				const found = await client.query("SELECT 1 FROM agent_schema_migrations WHERE version = $1", [step.version]);
				if (found.rowCount !== 0) return true;
				await client.query(step.sql);
				await client.query("INSERT INTO agent_schema_migrations (version, name, applied_by) VALUES ($1, $2, $3)", [
					step.version,
					step.name,
					PACKAGE_VERSION,
				]);
				return false;
			});
			if (!done) applied.push(step.version);
		}
	} finally {
		client.release();
	}
	return applied;
}

/** Runs `work` in a transaction holding the migration lock (two instances starting at once take turns). */
async function inTransaction<T>(client: PoolClient, what: string, work: () => Promise<T>): Promise<T> {
	await client.query("BEGIN");
	try {
		await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
		const result = await work();
		await client.query("COMMIT");
		return result;
	} catch (error) {
		await client.query("ROLLBACK").catch(() => undefined);
		throw storageFailure(what, error);
	}
}
