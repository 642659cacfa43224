import { closeSync, fdatasync, ftruncateSync, readSync, writeSync } from "node:fs";
import { storageFailure } from "./errors.js";
import { openOwnFile, SIDE_APPEND_FLAGS } from "./safe-files.js";

/** UTF-8 encoding space reused by appends (they are synchronous, so one at a time uses it). */
let scratch = Buffer.allocUnsafe(64 << 10);
/** Larger texts get a Buffer of their own, so the reused one never holds much memory. */
const SCRATCH_MAX = 1 << 20;

/** The UTF-8 bytes of `text`, encoded once (no separate length scan); valid until the next call. */
function utf8(text: string): Buffer {
	const most = text.length * 3; // a UTF-16 code unit never takes more than 3 bytes of UTF-8
	if (most > SCRATCH_MAX) return Buffer.from(text);
	if (scratch.length < most) scratch = Buffer.allocUnsafe(SCRATCH_MAX);
	return scratch.subarray(0, scratch.write(text));
}

/**
 * Writes all of `bytes` at the end of a file opened with O_APPEND. One write(2) for the whole
 * batch in the normal case; a short write (disk full, file size limit) is continued, and if the
 * rest fails the file is cut back to `sizeBefore`, so nothing half-written stays behind: those
 * bytes were never acknowledged. Synchronous: see line-reader.ts for why. A string (the append
 * path's case) is encoded into a reused buffer, not a new one per append; returns the bytes
 * written.
 */
export function appendAll(fd: number, text: Buffer | string, sizeBefore: number, what: string): number {
	const bytes = typeof text === "string" ? utf8(text) : text;
	let written = 0;
	try {
		while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
	} catch (error) {
		if (written > 0) {
			try {
				ftruncateSync(fd, sizeBefore);
			} catch {
				// Left as a torn tail: readers ignore it and the next writer cuts it off.
			}
		}
		throw storageFailure(
			`could not write ${what} (${(error as Error).message}); nothing of it was kept. Free disk space or fix the error and retry`,
			error,
		);
	}
	return bytes.length;
}

/** fdatasync on the thread pool: a flush takes milliseconds, too long to block the event loop for. */
export function datasync(fd: number): Promise<void> {
	return new Promise((resolve, reject) => {
		fdatasync(fd, (error) => (error ? reject(error) : resolve()));
	});
}

/** Copies the bytes [from, to) of a file to the end of another (how a torn tail is kept before it is cut). */
export function copyRange(fd: number, from: number, to: number, target: string): void {
	const length = Math.min(to - from, 64 << 20);
	const bytes = Buffer.allocUnsafe(length);
	const read = readSync(fd, bytes, 0, length, from);
	const header = Buffer.from(
		`\n--- ${to - from} torn bytes cut at offset ${from} on ${new Date().toISOString()} ---\n`,
	);
	const out = openOwnFile(target, SIDE_APPEND_FLAGS);
	try {
		const all = Buffer.concat([header, bytes.subarray(0, read)]);
		let written = 0;
		while (written < all.length) written += writeSync(out, all, written, all.length - written);
	} finally {
		closeSync(out);
	}
}
