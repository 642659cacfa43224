import * as fs from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import type { LeaseHolder } from "@agent/session-format/reading";
import type { lockSync } from "proper-lockfile";
import { errnoCode, locked, notFound, storageFailure } from "./errors.js";
import { type SessionPaths, takeoverGuardOf } from "./paths.js";
import { isProcessAlive } from "./process-alive.js";
import { DIR_MODE, FILE_MODE } from "./safe-files.js";

/**
 * The cross-process single-writer lease: proper-lockfile's mkdir lock on `lease.lock/`, kept
 * fresh by its mtime updates, taken over when stale. Inside the lock directory we add an empty
 * file whose name encodes the holder (pid, host, since): it belongs to that lock and no other,
 * names the holder in SessionLockedError, and lets a same-host holder that died be replaced at
 * once instead of after the stale timeout. An empty file, created in one step, because a name is
 * written atomically and costs no data block (a small file's data, created and removed on every
 * append, cost milliseconds of forced writeback on the ext4 disks measured).
 */
export interface HeldLock {
	readonly holder: LeaseHolder;
	/** True once proper-lockfile found the lock taken over (it went stale while we held it). */
	isCompromised(): boolean;
	/** True when proper-lockfile has not renewed the lock for longer than it should have: call confirm() before writing. */
	refreshOverdue(): boolean;
	/**
	 * Whether the lock is still ours, for a holder whose lock may have gone stale: a loop of
	 * appends that never waits for I/O starves proper-lockfile's renewal timer, and a blocked or
	 * stopped process misses it. It gives the event loop a turn (so an overdue renewal runs, or
	 * finds the takeover), then checks that the lock directory still holds our holder entry: after
	 * a takeover it does not, and writing would race the new holder.
	 */
	confirm(): Promise<boolean>;
	release(): void;
}

const HOLDER_PREFIX = "holder-";

/** The locks this process holds, by lock directory: our holder entry in it, and when the lock was last renewed. */
const held = new Map<string, { entry: string | undefined; renewedAt: number }>();

/**
 * proper-lockfile's rmdir: removes a lock directory and the holder entry in it. A lock of ours
 * (a release, or proper-lockfile's clean-up at exit) is removed unless it was taken over
 * meanwhile (our holder entry is gone from it: removing it would remove the new holder's lock).
 * Any other lock is one proper-lockfile judged stale: see removeStaleLock.
 */
function removeLockDir(path: string, staleMs: number): void {
	const ours = held.get(path);
	if (!ours) {
		removeStaleLock(path, staleMs);
		return;
	}
	held.delete(path);
	if (ours.entry !== undefined && !fs.existsSync(ours.entry)) return;
	removeLockTree(path);
}

/**
 * Removes a lock proper-lockfile found stale, under the session's takeover guard, and only if it
 * is still stale. proper-lockfile stats a lock and then removes it; in between, another process
 * may remove that stale lock and a third take the lease anew, and removing the fresh lock would
 * give two writers one lease. Under the guard (which every removal of a lock not ours takes), a
 * lock that is fresh again is refused as held (ELOCKED: the caller waits and tries again).
 */
export function removeStaleLock(path: string, staleMs: number): void {
	const removed = underTakeoverGuard(takeoverGuardOf(path), () => {
		const stat = fs.statSync(path, { throwIfNoEntry: false });
		if (!stat) return true;
		if (stat.mtimeMs >= Date.now() - Math.max(staleMs, MIN_STALE_MS)) return false;
		removeLockTree(path);
		return true;
	});
	if (!removed) throw Object.assign(new Error(`${path} is held`), { code: "ELOCKED" });
}

function removeLockTree(path: string): void {
	for (const entry of fs.readdirSync(path)) fs.unlinkSync(join(path, entry));
	fs.rmdirSync(path);
}

/**
 * Runs `remove` holding the session's takeover guard (a directory: mkdir is atomic, so one
 * process at a time); false when another process holds it, or `remove` fails.
 */
function underTakeoverGuard(guard: string, remove: () => boolean): boolean {
	try {
		fs.mkdirSync(guard, { mode: DIR_MODE });
	} catch {
		removeStaleGuard(guard);
		return false;
	}
	try {
		return remove();
	} catch {
		return false;
	} finally {
		try {
			fs.rmdirSync(guard);
		} catch {
			// removed already
		}
	}
}

/** proper-lockfile's floor for the stale timeout. */
const MIN_STALE_MS = 2000;

/**
 * proper-lockfile's fs for a stale timeout, except that a lock directory is removed with the
 * holder entry inside it, and a stale one only under the takeover guard. One per timeout, kept:
 * proper-lockfile caches the filesystem's mtime precision on it.
 */
const lockFsByStale = new Map<number, object>();
function lockFsFor(staleMs: number): object {
	let lockFs = lockFsByStale.get(staleMs);
	if (lockFs) return lockFs;
	lockFs = {
		// The lock directory is private like the rest of the store (0700, not the umask's 0755).
		mkdirSync: (path: string) => fs.mkdirSync(path, { mode: DIR_MODE }),
		realpathSync: fs.realpathSync,
		statSync: fs.statSync,
		utimesSync: fs.utimesSync,
		rmdirSync: (path: string) => removeLockDir(path, staleMs),
		mkdir: (path: string, callback: (error: NodeJS.ErrnoException | null) => void) =>
			fs.mkdir(path, { mode: DIR_MODE }, (error) => callback(error)),
		realpath: fs.realpath,
		stat: fs.stat,
		utimes: (path: string, atime: Date, mtime: Date, callback: (error: NodeJS.ErrnoException | null) => void) =>
			fs.utimes(path, atime, mtime, (error) => {
				const ours = held.get(path);
				if (!error && ours) ours.renewedAt = Date.now();
				callback(error);
			}),
		rmdir: (path: string, callback: (error: NodeJS.ErrnoException | null) => void) => {
			try {
				removeLockDir(path, staleMs);
				callback(null);
			} catch (error) {
				callback(error as NodeJS.ErrnoException);
			}
		},
	};
	lockFsByStale.set(staleMs, lockFs);
	return lockFs;
}

// Clipped so that the holder entry's name stays well under the 255-byte limit of file names.
const HOST = hostname().slice(0, 80);

export interface LockWaitOptions {
	waitMs: number;
	staleMs: number;
	signal?: AbortSignal;
	home: string;
}

let lockfile: Promise<{ lockSync: typeof lockSync }> | undefined;

/**
 * proper-lockfile, loaded by the first lease taken in the process: with graceful-fs, signal-exit
 * and Node's assert behind it, it is a noticeable part of the start-up of a process that only
 * reads (a CLI listing), which never takes a lease.
 */
function loadLockfile(): Promise<{ lockSync: typeof lockSync }> {
	lockfile ??= import("proper-lockfile").then((module) => module.default);
	return lockfile;
}

/** Takes the lease, waiting up to waitMs; throws SessionLockedError naming the holder when it cannot. */
export async function acquireFileLock(paths: SessionPaths, options: LockWaitOptions): Promise<HeldLock> {
	const { lockSync } = await loadLockfile();
	const started = Date.now();
	let attempt = 0;
	for (;;) {
		options.signal?.throwIfAborted();
		const held = tryLock(lockSync, paths, options);
		if (held) return held;
		if (takeOverDeadHolder(paths, options.staleMs)) continue;
		const waited = Date.now() - started;
		if (waited >= options.waitMs) throw locked(paths.id, readHolder(paths), waited);
		const delay = Math.min(2 ** Math.min(attempt++, 6) + Math.random() * 4, options.waitMs - waited);
		await sleep(delay, options.signal);
	}
}

/** One attempt: the lock, or undefined when another holder has it. */
function tryLock(
	lock: typeof lockSync,
	paths: SessionPaths,
	options: { staleMs: number; home: string },
): HeldLock | undefined {
	let compromised = false;
	let release: () => void;
	try {
		release = lock(paths.log, {
			lockfilePath: paths.lockDir,
			realpath: false,
			stale: options.staleMs,
			fs: lockFsFor(options.staleMs),
			onCompromised: () => {
				compromised = true;
			},
		});
	} catch (error) {
		const code = errnoCode(error);
		if (code === "ELOCKED") return undefined;
		if (code === "ENOENT") {
			// The session's directory is gone, or the lock just made vanished under proper-lockfile's
			// probe of it (removed by another process): only the first is "not found"; try again.
			if (!fs.existsSync(paths.dir)) throw notFound(paths.id);
			return undefined;
		}
		throw storageFailure(`could not take the write lease of session ${paths.id} (${paths.lockDir})`, error);
	}
	const holder: LeaseHolder = { pid: process.pid, host: HOST, since: new Date().toISOString() };
	const mine: { entry: string | undefined; renewedAt: number } = { entry: undefined, renewedAt: Date.now() };
	held.set(paths.lockDir, mine);
	try {
		// Adding a file changes the directory's mtime, which proper-lockfile watches to tell that its
		// lock was taken over: put the mtime back as the lock set it.
		const before = fs.statSync(paths.lockDir);
		const name = HOLDER_PREFIX + Buffer.from(JSON.stringify(holder)).toString("base64url");
		fs.closeSync(fs.openSync(join(paths.lockDir, name), "wx", FILE_MODE));
		mine.entry = join(paths.lockDir, name);
		fs.utimesSync(paths.lockDir, before.atime, before.mtime);
	} catch {
		// The holder file only improves messages and dead-holder takeover; the lock stands without it.
	}
	return {
		holder,
		isCompromised: () => compromised,
		// proper-lockfile renews every staleMs/2; past 0.6 of the stale timeout a renewal was missed.
		refreshOverdue: () => Date.now() - mine.renewedAt > options.staleMs * 0.6,
		confirm: async () => {
			await new Promise((resolve) => setImmediate(resolve));
			if (compromised) return false;
			return mine.entry === undefined || fs.existsSync(mine.entry);
		},
		release: () => {
			try {
				release();
			} catch {
				// Already released, or taken over: either way it is no longer ours.
			}
			if (held.get(paths.lockDir) === mine) held.delete(paths.lockDir);
		},
	};
}

/** Who holds the lease, if the lock names its holder (not yet, in the instant after it was taken). */
export function readHolder(paths: SessionPaths): LeaseHolder | undefined {
	try {
		const entry = fs.readdirSync(paths.lockDir).find((name) => name.startsWith(HOLDER_PREFIX));
		if (!entry) return undefined;
		const value = JSON.parse(
			Buffer.from(entry.slice(HOLDER_PREFIX.length), "base64url").toString("utf8"),
		) as Partial<LeaseHolder>;
		if (typeof value.pid === "number" && typeof value.host === "string" && typeof value.since === "string") {
			return { pid: value.pid, host: value.host, since: value.since };
		}
	} catch {
		// no lock any more, or a name this code did not write
	}
	return undefined;
}

/**
 * Removes the lock of a holder on this host whose process is gone (SIGKILL, OOM), so the next
 * writer need not wait for the stale timeout. Safe against races: it runs under the takeover
 * guard, re-reads the holder file inside the lock it removes, and leaves locks near their stale
 * age to proper-lockfile's own takeover.
 */
function takeOverDeadHolder(paths: SessionPaths, staleMs: number): boolean {
	const holder = readHolder(paths);
	if (!holder || holder.host !== HOST || holder.pid === process.pid || isProcessAlive(holder.pid)) return false;
	return underTakeoverGuard(paths.takeoverGuard, () => {
		const age = Date.now() - fs.statSync(paths.lockDir).mtimeMs;
		const again = readHolder(paths);
		if (
			age > staleMs - Math.min(1000, staleMs / 4) ||
			!again ||
			again.pid !== holder.pid ||
			again.since !== holder.since
		)
			return false;
		removeLockTree(paths.lockDir);
		return true;
	});
}

/** A guard left by a process that died in the middle of a takeover (a few microseconds' window). */
function removeStaleGuard(guard: string): void {
	try {
		if (Date.now() - fs.statSync(guard).mtimeMs > 5000) fs.rmdirSync(guard);
	} catch {
		// gone already
	}
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		const timer = setTimeout(done, ms);
		function done() {
			signal?.removeEventListener("abort", onAbort);
			resolve();
		}
		function onAbort() {
			clearTimeout(timer);
			reject(signal?.reason);
		}
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}
