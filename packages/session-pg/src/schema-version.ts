import { createRequire } from "node:module";
import { AgentSessionError } from "@agent/session-format";
import type { PoolClient } from "pg";
import { PREFIX } from "./errors.js";

/** Set by a bundler that inlines this package (the agent-sessions CLI); otherwise read from package.json. */
declare const __AGENT_SESSION_PG_VERSION__: string | undefined;

/** This package's version: recorded beside each schema step it applies, named when a database is too new for it. */
export const PACKAGE_VERSION: string =
	typeof __AGENT_SESSION_PG_VERSION__ === "string"
		? __AGENT_SESSION_PG_VERSION__
		: (createRequire(import.meta.url)("../package.json") as { version: string }).version;

/**
 * Makes the schema's own bookkeeping: agent_schema_migrations, one row per step applied, with the
 * package version that applied it (`applied_by`, added to tables made before it existed). Run in
 * the migration's transaction, under its advisory lock.
 */
export async function prepareSchemaBook(client: PoolClient): Promise<void> {
	await client.query(
		"CREATE TABLE IF NOT EXISTS agent_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
	);
	// Checked first: ALTER TABLE takes the table's strongest lock even when the column is there.
	const { rowCount } = await client.query(
		"SELECT 1 FROM pg_attribute WHERE attrelid = 'agent_schema_migrations'::regclass AND attname = 'applied_by' AND NOT attisdropped",
	);
	if (rowCount === 0) await client.query("ALTER TABLE agent_schema_migrations ADD COLUMN applied_by text");
}

/**
 * Refuses a database whose schema has steps this package does not know: a newer release migrated
 * it, and this one would write rows its tables no longer mean (or miss what they now need). The
 * error names the release to run instead. Not temporary: waiting does not help, so a server exits.
 */
export async function refuseNewerSchema(client: PoolClient, knownVersion: number): Promise<void> {
	const { rows } = await client.query<{ version: number; name: string; applied_by: string | null }>(
		"SELECT version, name, applied_by FROM agent_schema_migrations WHERE version > $1 ORDER BY version DESC",
		[knownVersion],
	);
	const newest = rows[0];
	if (!newest) return;
	const by = rows.map((row) => row.applied_by).find((version) => version !== null);
	const release = by ? `@agent/session-pg ${by} or later` : "a newer @agent/session-pg";
	throw new AgentSessionError(
		"STORAGE_FAILURE",
		`${PREFIX} the database's schema is newer than this program knows: it is at step ${newest.version} ("${newest.name}")${by ? `, applied by @agent/session-pg ${by}` : ""}, and this program's @agent/session-pg ${PACKAGE_VERSION} knows steps up to ${knownVersion}. Run a release built on ${release} (agent-sessions-server and agent-sessions of that release; \`npm ls @agent/session-pg\` shows which one a program has). Nothing was changed in the database`,
	);
}
