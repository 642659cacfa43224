import { hostname } from "node:os";
import type { LeaseHolder, SessionMetadata } from "@agent/session-format";
import { type Db, LOCK_KEY_SQL } from "./rows.js";

/**
 * Who holds a session's lease, as its holder recorded it when it took the lock — only while that
 * holder's connection is alive (a row left by a dead holder names nobody). A plain append holds
 * the lock for one transaction and records no holder: then nobody is named.
 */
export async function readHolder(db: Db, id: string): Promise<LeaseHolder | undefined> {
	try {
		const { rows } = await db.query<{ pid: number; host: string; since: Date }>(
			"SELECT l.pid, l.host, l.since FROM agent_leases l WHERE l.session_id = $1 AND EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = l.backend_pid)",
			[id],
		);
		const row = rows[0];
		return row ? { pid: row.pid, host: row.host, since: new Date(row.since).toISOString() } : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Takes the session's session-level advisory lock on the connection `db` (waiting up to its
 * lock_timeout), records this process as its holder, and reads the session's metadata, in one
 * statement (one round trip, where checking the session, locking, recording and reading took
 * four). The metadata is as of the statement's start, before the wait: a writer that came in
 * between makes it stale, which the lease's guarded appends notice (see PgLease.append).
 * Undefined when there is no such session (then nothing is locked).
 */
export async function lockAndRecordHolder(
	db: Db,
	id: string,
): Promise<{ holder: LeaseHolder; metadata: SessionMetadata | null } | undefined> {
	const { rows } = await db.query<{ since: Date; metadata: SessionMetadata | null }>({
		name: "agent_lease_take",
		text: `WITH session AS (SELECT id, metadata FROM agent_sessions WHERE id = $1),
		 holder AS (
			INSERT INTO agent_leases (session_id, pid, host, since, backend_pid)
			SELECT s.id, $2, $3, now(), pg_backend_pid()
			FROM session s, LATERAL (SELECT pg_advisory_lock(${LOCK_KEY_SQL.replace("$1", "s.id")})) l
			ON CONFLICT (session_id) DO UPDATE SET pid = EXCLUDED.pid, host = EXCLUDED.host, since = EXCLUDED.since, backend_pid = EXCLUDED.backend_pid
			RETURNING since
		 )
		 SELECT holder.since, session.metadata FROM holder, session`,
		values: [id, process.pid, hostname()],
	});
	const row = rows[0];
	if (!row) return undefined;
	return {
		holder: { pid: process.pid, host: hostname(), since: new Date(row.since).toISOString() },
		metadata: row.metadata,
	};
}

/** Records this process as the holder of a lease just taken on the connection `db`. */
export async function recordHolder(db: Db, id: string): Promise<LeaseHolder> {
	const { rows } = await db.query<{ since: Date }>(
		`INSERT INTO agent_leases (session_id, pid, host, since, backend_pid) VALUES ($1, $2, $3, now(), pg_backend_pid())
		 ON CONFLICT (session_id) DO UPDATE SET pid = EXCLUDED.pid, host = EXCLUDED.host, since = EXCLUDED.since, backend_pid = EXCLUDED.backend_pid
		 RETURNING since`,
		[id, process.pid, hostname()],
	);
	return { pid: process.pid, host: hostname(), since: new Date((rows[0] as { since: Date }).since).toISOString() };
}
