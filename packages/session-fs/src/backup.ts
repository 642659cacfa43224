import { chmodSync, existsSync, lstatSync, readdirSync, renameSync, rmSync, type Stats } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { copySession, type SessionCopy, writeNewFile } from "./backup-session.js";
import { errnoCode, invalidArgument, storageFailure } from "./errors.js";
import { resolveHome, sessionPaths, sessionsRoot } from "./paths.js";
import { DIR_MODE, makePrivateDir, readOwnFileCapped, syncDirectory } from "./safe-files.js";

/**
 * `agent-sessions backup`: a consistent copy of a live file store, made while writers go on,
 * that `verify` passes with no repair (see copySession for what makes each session consistent).
 * Import it from `@agent/session-fs/backup`.
 */

export interface BackupOptions {
	/** The store's home (default $AGENT_HOME, else ~/.agent). */
	from?: string;
	/** Where the copy goes: a directory that does not exist yet, or an empty one. */
	to: string;
	/** The longest line read when checking the copy (default 256 MiB, as the store). */
	maxLineBytes?: number;
	/** Called after each session, for progress. */
	onSession?: (progress: { index: number; total: number; copy?: SessionCopy; sessionId: string }) => void;
}

export interface BackupReport {
	from: string;
	to: string;
	/** When the copy started: every record acknowledged before then is in it. */
	startedAt: string;
	finishedAt: string;
	/** Files of the home copied beside the sessions (config.yaml...). */
	files: string[];
	/** What the home held that the backup left out, and why (the cache: it is rebuilt). */
	skipped: Array<{ name: string; reason: string }>;
	sessions: SessionCopy[];
	/** Sessions deleted while the backup ran (listed at its start, gone when their turn came). */
	deleted: string[];
	/** Sessions that could not be copied (a session directory that is a symbolic link...). */
	failed: Array<{ sessionId: string; message: string }>;
	/** Sessions whose copied log holds problems of the source's own (see `verify` on the source). */
	withProblems: number;
	bytes: number;
}

const SESSION_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
/** Tries at a session whose copy verify finds a problem in: the source may have changed under one try. */
const TRIES = 3;

export async function backupFileStore(options: BackupOptions): Promise<BackupReport> {
	const from = resolveHome(options.from);
	const to = resolve(options.to);
	checkPlaces(from, to);
	const startedAt = new Date().toISOString();
	// Written under a temporary name beside DIR and renamed when complete, so that a copy that
	// failed half way never looks like a backup. An existing empty DIR (a mount point) is written
	// in place.
	const inPlace = existsSync(to);
	const work = inPlace ? to : join(dirname(to), `.${basename(to)}.partial-${process.pid}`);
	try {
		if (inPlace) chmodSync(work, DIR_MODE);
		else makePrivateDir(work, { recursive: true });
		const report = await copyStore(from, work, options);
		if (!inPlace) {
			renameSync(work, to);
			syncDirectory(dirname(to));
		}
		return { from, to, startedAt, finishedAt: new Date().toISOString(), ...report };
	} catch (error) {
		if (inPlace) for (const name of readdirSync(to)) rmSync(join(to, name), { recursive: true, force: true });
		else rmSync(work, { recursive: true, force: true });
		throw error;
	}
}

async function copyStore(
	from: string,
	to: string,
	options: BackupOptions,
): Promise<Omit<BackupReport, "from" | "to" | "startedAt" | "finishedAt">> {
	const report: Omit<BackupReport, "from" | "to" | "startedAt" | "finishedAt"> = {
		files: [],
		skipped: [],
		sessions: [],
		deleted: [],
		failed: [],
		withProblems: 0,
		bytes: 0,
	};
	for (const entry of readdirSync(from, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
		if (entry.name === "sessions" && entry.isDirectory()) continue;
		if (entry.name === "cache")
			report.skipped.push({ name: entry.name, reason: "derived and disposable: rebuilt on first use" });
		else if (!entry.isFile()) report.skipped.push({ name: entry.name, reason: `not a regular file (${kind(entry)})` });
		else if (/\.partial-\d+$|\.tmp$/.test(entry.name))
			report.skipped.push({ name: entry.name, reason: "a temporary file" });
		else {
			const read = readOwnFileCapped(join(from, entry.name), Number.MAX_SAFE_INTEGER);
			if (read.state !== "ok") throw storageFailure(`could not read ${join(from, entry.name)} for the backup`);
			writeNewFile(join(to, entry.name), read.bytes);
			report.files.push(entry.name);
		}
	}
	const ids = sessionIds(from);
	if (ids.length > 0) makePrivateDir(sessionsRoot(to));
	for (const [index, sessionId] of ids.entries()) {
		const copy = await copyWithRetries(from, to, sessionId, options, report);
		if (copy) {
			report.sessions.push(copy);
			report.bytes += copy.bytes;
			if (!copy.ok) report.withProblems++;
		}
		options.onSession?.({ index: index + 1, total: ids.length, sessionId, ...(copy ? { copy } : {}) });
	}
	if (ids.length > 0) syncDirectory(sessionsRoot(to));
	syncDirectory(to);
	return report;
}

async function copyWithRetries(
	from: string,
	to: string,
	sessionId: string,
	options: BackupOptions,
	report: Pick<BackupReport, "deleted" | "failed">,
): Promise<SessionCopy | undefined> {
	const target = sessionPaths(to, sessionId);
	let copy: SessionCopy | undefined;
	for (let attempt = 1; attempt <= TRIES; attempt++) {
		rmSync(target.dir, { recursive: true, force: true });
		try {
			copy = await copySession(sessionPaths(from, sessionId), target, options);
		} catch (error) {
			if (errnoCode(error) === "ENOENT" || !existsSync(sessionPaths(from, sessionId).dir)) {
				copy = undefined;
			} else {
				rmSync(target.dir, { recursive: true, force: true });
				report.failed.push({ sessionId, message: (error as Error).message });
				return undefined;
			}
		}
		if (!copy) {
			rmSync(target.dir, { recursive: true, force: true });
			report.deleted.push(sessionId);
			return undefined;
		}
		// A damaged line is either the source's own (it stays in every try) or a write cut back
		// (disk full) and rewritten while this copy read it: the next try reads it whole.
		if (copy.ok) return copy;
	}
	return copy;
}

/** The ids of the store's sessions, in order; other names under sessions/ are not the store's. */
function sessionIds(home: string): string[] {
	try {
		return readdirSync(sessionsRoot(home))
			.filter((name) => SESSION_ID.test(name))
			.sort();
	} catch (error) {
		if (errnoCode(error) === "ENOENT") return [];
		throw storageFailure(`could not list ${sessionsRoot(home)}`, error);
	}
}

/** Refuses a source that is no store and a target that is not empty or lies inside the source (or holds it). */
function checkPlaces(from: string, to: string): void {
	if (!existsSync(join(from, "sessions")) && !existsSync(join(from, "config.yaml"))) {
		throw invalidArgument(
			`${from} holds no file store (no sessions/ and no config.yaml); give the store's home with --home or $AGENT_HOME`,
		);
	}
	const inside = (outer: string, inner: string) => {
		const path = relative(outer, inner);
		return path === "" || (!path.startsWith("..") && !isAbsolute(path));
	};
	if (inside(from, to) || inside(to, from)) {
		throw invalidArgument(`the backup's directory ${to} and the store ${from} overlap; put the backup somewhere else`);
	}
	let stats: Stats;
	try {
		stats = lstatSync(to);
	} catch (error) {
		if (errnoCode(error) === "ENOENT") return;
		throw storageFailure(`could not look at ${to}`, error);
	}
	if (!stats.isDirectory() || readdirSync(to).length > 0) {
		throw invalidArgument(
			`${to} already exists and is not an empty directory; a backup goes to a new (or empty) directory, so it never mixes with another`,
		);
	}
}

function kind(entry: { isDirectory(): boolean; isSymbolicLink(): boolean }): string {
	if (entry.isDirectory()) return "a directory";
	if (entry.isSymbolicLink()) return "a symbolic link";
	return "a special file";
}

export type { SessionCopy };
