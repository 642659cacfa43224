import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "node-sqlite3-wasm";
import type { OpenCodeSession } from "../formats/opencode-import.js";

/** OpenCode's tables as its 1.x releases create them (the columns the importer reads, and a few more). */
const SCHEMA = `
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE session (
	id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory text NOT NULL,
	title text NOT NULL, version text NOT NULL, share_url text, summary_additions integer, summary_deletions integer,
	summary_files integer, summary_diffs text, revert text, permission text, time_created integer NOT NULL,
	time_updated integer NOT NULL, time_compacting integer, time_archived integer
);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
`;

/** Writes sessions into an OpenCode database at `path` (created with the schema when new), as OpenCode stores them. */
export function writeOpenCodeDb(
	path: string,
	sessions: readonly OpenCodeSession[],
	options: { walOnly?: boolean } = {},
): void {
	const fresh = !existsSync(path);
	// With `walOnly`, the rows stay in the write-ahead log, as while OpenCode runs: the files are copied before closing.
	const work = options.walOnly ? join(mkdtempSync(join(tmpdir(), "opencode-db-")), "opencode.db") : path;
	if (options.walOnly && !fresh) {
		copyFileSync(path, work);
		if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${work}-wal`);
	}
	const db = new Database(work);
	try {
		db.exec("PRAGMA locking_mode = EXCLUSIVE");
		if (options.walOnly) db.exec("PRAGMA journal_mode = WAL");
		if (fresh) db.exec(SCHEMA);
		for (const { info, messages } of sessions) {
			const time = (info.time ?? {}) as Record<string, number>;
			db.run(
				`INSERT OR REPLACE INTO session (id, project_id, parent_id, slug, directory, title, version, revert, time_created, time_updated)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				[
					String(info.id),
					String(info.projectID ?? "global"),
					(info.parentID as string | undefined) ?? null,
					String(info.slug ?? "slug"),
					String(info.directory ?? "/"),
					String(info.title ?? ""),
					String(info.version ?? "1.2.0"),
					info.revert === undefined ? null : JSON.stringify(info.revert),
					time.created ?? 0,
					time.updated ?? time.created ?? 0,
				],
			);
			for (const message of messages) {
				const { id, sessionID: _s, ...data } = message.info as Record<string, unknown>;
				const created = ((data.time as Record<string, number> | undefined)?.created ?? 0) as number;
				db.run(
					"INSERT OR REPLACE INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)",
					[String(id), String(info.id), created, created, JSON.stringify(data)],
				);
				for (const part of message.parts) {
					const { id: partId, sessionID: _ps, messageID: _pm, ...partData } = part;
					db.run(
						"INSERT OR REPLACE INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)",
						[String(partId), String(id), String(info.id), created, created, JSON.stringify(partData)],
					);
				}
			}
		}
		if (options.walOnly) {
			copyFileSync(work, path);
			copyFileSync(`${work}-wal`, `${path}-wal`);
		}
	} finally {
		db.close();
		if (options.walOnly) rmSync(join(work, ".."), { recursive: true, force: true });
	}
}
