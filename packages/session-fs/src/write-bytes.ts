import { appendFileSync, fdatasync, ftruncateSync, readSync, writeSync } from "node:fs";
import { storageFailure } from "./errors.js";

/**
 * Writes all of `bytes` at the end of a file opened with O_APPEND. One write(2) for the whole
 * batch in the normal case; a short write (disk full, file size limit) is continued, and if the
 * rest fails the file is cut back to `sizeBefore`, so nothing half-written stays behind: those
 * bytes were never acknowledged. Synchronous: see line-reader.ts for why. A string is written
 * as UTF-8 without first copying it into a Buffer (the append path's case); returns the bytes
 * written.
 */
export function appendAll(fd: number, bytes: Buffer | string, sizeBefore: number, what: string): number {
	const length = typeof bytes === "string" ? Buffer.byteLength(bytes) : bytes.length;
	let written = 0;
	try {
		if (typeof bytes === "string") {
			written = writeSync(fd, bytes);
			if (written < length) bytes = Buffer.from(bytes); // a short write: go on from the byte it stopped at
		}
		while (written < length) written += writeSync(fd, bytes as Buffer, written, length - written);
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
	return length;
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
	appendFileSync(target, Buffer.concat([header, bytes.subarray(0, read)]));
}
