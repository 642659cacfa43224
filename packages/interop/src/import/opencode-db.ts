import { copyFile, mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invalidSource } from "../errors.js";
import type { OpenCodeSession } from "../formats/opencode-import.js";
import { isObject } from "../json-lines.js";
import { exists } from "./source-files.js";

const SQLITE_HEADER = "SQLite format 3\u0000";
const TABLES = ["session", "message", "part"];
/** Session columns OpenCode keeps as JSON text. */
const JSON_COLUMNS = new Set(["revert", "permission", "metadata", "model"]);

/** Whether a file is an SQLite database (its first 16 bytes say so). */
export async function isSqliteFile(path: string): Promise<boolean> {
	const handle = await open(path, "r");
	try {
		const buffer = Buffer.alloc(SQLITE_HEADER.length);
		const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
		return bytesRead === buffer.length && buffer.toString("latin1") === SQLITE_HEADER;
	} finally {
		await handle.close();
	}
}

type Row = Record<string, unknown>;
interface Db {
	exec(sql: string): void;
	all(sql: string, values?: unknown[]): Row[];
	close(): void;
}

/**
 * The sessions of an OpenCode database (`~/.local/share/opencode/opencode.db`, OpenCode 1.1 and
 * later: session, message and part tables, each message and part a JSON `data` column), each
 * shaped as `opencode export` prints it, oldest first.
 *
 * The database and its write-ahead log are copied into a private temporary folder and read there,
 * so the source is never touched (no lock, no checkpoint) even while OpenCode runs; what OpenCode
 * committed to its log is read too. The reader is node-sqlite3-wasm (SQLite compiled to
 * WebAssembly: it installs from npm with no native build and runs on every Node version we support;
 * `node:sqlite` needs Node >= 22.5 and warns that it is experimental). It is loaded only here.
 */
export async function* readOpenCodeDatabase(path: string): AsyncGenerator<OpenCodeSession> {
	const dir = await mkdtemp(join(tmpdir(), "agent-sessions-opencode-"));
	let db: Db | undefined;
	try {
		const copy = join(dir, "opencode.db");
		await copyFile(path, copy);
		if (await exists(`${path}-wal`)) await copyFile(`${path}-wal`, `${copy}-wal`);
		db = await openDatabase(copy, path);
		for (const row of db.all("SELECT * FROM session ORDER BY time_created, id")) {
			yield sessionOf(db, row);
		}
	} finally {
		db?.close();
		await rm(dir, { recursive: true, force: true });
	}
}

async function openDatabase(copy: string, source: string): Promise<Db> {
	const sqlite = (await import("node-sqlite3-wasm")) as unknown as {
		Database?: new (path: string, options: object) => Db;
		default?: { Database: new (path: string, options: object) => Db };
	};
	const Database = sqlite.Database ?? sqlite.default?.Database;
	if (!Database) throw new Error("node-sqlite3-wasm has no Database export");
	let db: Db;
	try {
		db = new Database(copy, { fileMustExist: true });
		// The log is read without shared memory (WebAssembly has none): SQLite needs exclusive locking mode for that.
		db.exec("PRAGMA locking_mode = EXCLUSIVE");
		const tables = new Set(db.all("SELECT name FROM sqlite_master WHERE type = 'table'").map((row) => row.name));
		if (TABLES.every((table) => tables.has(table))) return db;
		db.close();
	} catch (error) {
		throw invalidSource(source, `cannot be read as an SQLite database (${(error as Error).message})`, "Check the file");
	}
	throw invalidSource(
		source,
		"is an SQLite database without OpenCode's session, message and part tables",
		"Import OpenCode's opencode.db (~/.local/share/opencode), or a session exported with `opencode export <id>`",
	);
}

/** A session row, its messages and their parts, in the shape of `opencode export`. */
function sessionOf(db: Db, row: Row): OpenCodeSession {
	const id = String(row.id);
	const info: Row = { id };
	const rename: Record<string, string> = {
		project_id: "projectID",
		parent_id: "parentID",
		workspace_id: "workspaceID",
	};
	for (const [column, value] of Object.entries(row)) {
		if (value === null || column === "id" || column.startsWith("time_") || column.startsWith("summary_")) continue;
		if (column === "share_url") info.share = { url: value };
		else info[rename[column] ?? column] = JSON_COLUMNS.has(column) ? parsed(value) : value;
	}
	const time: Row = {};
	for (const key of ["created", "updated", "compacting", "archived"])
		if (row[`time_${key}`] != null) time[key] = row[`time_${key}`];
	info.time = time;
	if (row.summary_additions != null) {
		info.summary = {
			additions: row.summary_additions,
			deletions: row.summary_deletions,
			files: row.summary_files,
			diffs: parsed(row.summary_diffs),
		};
	}
	const parts = new Map<string, Row[]>();
	const partRows = db.all(
		"SELECT p.id, p.message_id, p.data FROM part p JOIN message m ON m.id = p.message_id WHERE m.session_id = ? ORDER BY p.message_id, p.id",
		[id],
	);
	for (const part of partRows) {
		const data = parsed(part.data);
		const list = parts.get(String(part.message_id)) ?? [];
		list.push({ ...(isObject(data) ? data : {}), id: part.id, sessionID: id, messageID: part.message_id });
		parts.set(String(part.message_id), list);
	}
	const messages = db
		.all("SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id", [id])
		.map((message) => {
			const data = parsed(message.data);
			return {
				info: { ...(isObject(data) ? data : {}), id: message.id, sessionID: id },
				parts: parts.get(String(message.id)) ?? [],
			};
		});
	return { info, messages };
}

/** A JSON text column as its value; anything else as it is. */
function parsed(value: unknown): unknown {
	if (typeof value !== "string") return value;
	try {
		return JSON.parse(value) as unknown;
	} catch {
		return value;
	}
}
