import {
	chmodSync,
	closeSync,
	constants,
	fchmodSync,
	fstatSync,
	fsyncSync,
	lstatSync,
	mkdirSync,
	openSync,
	readSync,
	type Stats,
} from "node:fs";
import { errnoCode, storageFailure } from "./errors.js";

/**
 * How the store touches its own files. Transcripts hold secrets, so whatever the umask, every
 * file it makes is 0600 and every directory 0700 (set explicitly after creation: a mode given to
 * open or mkdir is only ever reduced by the umask). Its files are opened without following a
 * symbolic link planted in their place (O_NOFOLLOW), and a name that turns out to be anything but
 * a regular file (a FIFO, a device, a directory) is refused, never read or written through.
 */

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

const { O_RDONLY, O_WRONLY, O_RDWR, O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;
/** Opening a directory to fsync it. */
export const DIR_READ_FLAGS = O_RDONLY | constants.O_DIRECTORY | O_NOFOLLOW;

/** Opening for reading a FIFO planted in place of a file would block: O_NONBLOCK opens it at once so fstat can refuse it. */
export const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
/** The log, opened by its writer: read and append, created if missing (its directory exists). */
export const APPEND_FLAGS = O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW;
/** A file that must not exist yet (a new log, a temporary file). */
export const CREATE_FLAGS = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;
/** Appending to a side file (torn-tails.bin), created if missing. */
export const SIDE_APPEND_FLAGS = O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW;

/** The error for a name that is not a regular file: what it is, and what to do. */
export function notRegular(path: string, what: string): Error {
	return storageFailure(
		`${path} is ${what}, not a regular file; the store never reads or writes through it. Remove it (the session's log is kept in session.jsonl, the caches are rebuilt)`,
	);
}

function kindOf(stats: Stats): string {
	if (stats.isSymbolicLink()) return "a symbolic link";
	if (stats.isFIFO()) return "a FIFO";
	if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
	if (stats.isDirectory()) return "a directory";
	if (stats.isSocket()) return "a socket";
	return "not a regular file";
}

/**
 * Opens one of the store's own files: never through a symbolic link (ELOOP becomes a clear
 * error), and only when it is a regular file. New files get FILE_MODE exactly. Errors other than
 * those (ENOENT...) are thrown as they are, for the caller to map.
 */
export function openOwnFile(path: string, flags: number): number {
	let fd: number;
	try {
		fd = openSync(path, flags, FILE_MODE);
	} catch (error) {
		if (errnoCode(error) === "ELOOP") throw notRegular(path, "a symbolic link");
		throw error;
	}
	let stats: Stats;
	try {
		stats = fstatSync(fd);
	} catch (error) {
		closeSync(fd);
		throw error;
	}
	if (!stats.isFile()) {
		closeSync(fd);
		throw notRegular(path, kindOf(stats));
	}
	if ((flags & (O_WRONLY | O_RDWR)) !== 0 && (stats.mode & 0o777) !== FILE_MODE) {
		// Made just now (the umask may have changed the mode) or by an older version: private it is.
		try {
			fchmodSync(fd, FILE_MODE);
		} catch {
			// Not ours to change (another user's file): it is still written only through this fd.
		}
	}
	return fd;
}

/** Makes a directory of the store (mode 0700 whatever the umask); an existing one is left as it is. */
export function makePrivateDir(path: string, options: { recursive?: boolean } = {}): boolean {
	const recursive = options.recursive ?? false;
	// Non-recursive: throws EEXIST when it is there. Recursive: returns undefined when it was.
	const made = mkdirSync(path, { mode: DIR_MODE, recursive });
	if (recursive && made === undefined) return false;
	chmodSync(path, DIR_MODE);
	return true;
}

/** Makes a directory's entries (files made, renamed or removed in it) survive a power loss. */
export function syncDirectory(dir: string): void {
	syncFile(openSync(dir, DIR_READ_FLAGS), { close: true });
}

/** fsync of an open file (closed after when asked, whether or not the flush worked). */
export function syncFile(fd: number, options: { close?: boolean } = {}): void {
	try {
		fsyncSync(fd);
	} finally {
		if (options.close) closeSync(fd);
	}
}

/** A session directory that is a symbolic link (or not a directory) is never read or written through. */
export function assertRealDirectory(dir: string): void {
	let stats: Stats;
	try {
		stats = lstatSync(dir);
	} catch (error) {
		if (errnoCode(error) === "ENOENT") return; // the caller reports a missing session
		throw storageFailure(`could not look at ${dir}`, error);
	}
	if (!stats.isDirectory()) throw notRegularDirectory(dir, kindOf(stats));
}

export function notRegularDirectory(dir: string, what: string): Error {
	return storageFailure(
		`the session directory ${dir} is ${what}, not a directory of this store; it is never read or written through. Remove it, or move the real directory in its place`,
	);
}

/** What a capped read of a cache file found. */
export type CappedRead = { state: "ok"; bytes: Buffer } | { state: "missing" } | { state: "invalid"; reason: string };

/**
 * Reads a whole cache file (metadata.json, the listing snapshot) through openOwnFile, refusing
 * one larger than `maxBytes`: a cache is rebuilt from the log when it is unusable, so a planted
 * or damaged giant file costs a rebuild, never the memory or time of reading it.
 */
export function readOwnFileCapped(path: string, maxBytes: number): CappedRead {
	let fd: number;
	try {
		fd = openOwnFile(path, READ_FLAGS);
	} catch (error) {
		if (errnoCode(error) === "ENOENT") return { state: "missing" };
		return { state: "invalid", reason: (error as Error).message };
	}
	try {
		const size = fstatSync(fd).size;
		if (size > maxBytes)
			return { state: "invalid", reason: `it is ${size} bytes, more than the ${maxBytes} a cache file may hold` };
		const bytes = Buffer.allocUnsafe(size);
		let length = 0;
		while (length < size) {
			const read = readSync(fd, bytes, length, size - length, length);
			if (read === 0) break;
			length += read;
		}
		return { state: "ok", bytes: bytes.subarray(0, length) };
	} catch (error) {
		return { state: "invalid", reason: `unreadable (${(error as Error).message})` };
	} finally {
		closeSync(fd);
	}
}

/** metadata.json: a few KiB normally; 8 MiB holds the largest system prompt the store accepts several times over. */
export const MAX_METADATA_BYTES = 8 << 20;
/** The listing snapshot: about 1 KiB per session. */
export const MAX_SNAPSHOT_BYTES = 256 << 20;
