import { closeSync, existsSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { CREATE_FLAGS, makePrivateDir, openOwnFile, readOwnFileCapped } from "./safe-files.js";

/**
 * Files in the store's cache directory ($AGENT_HOME/cache: the listing's snapshot, the runtime's
 * model windows): derived, disposable, private. Read without following a link and only up to a
 * size; replaced by a temporary file and a rename (no fsync: losing one costs one slower run), so
 * that concurrent writers leave one whole file or the other. A failure to read is "none", a
 * failure to write (a read-only home, a full disk) is ignored.
 */

/** The file's bytes; undefined when it is missing, larger than `maxBytes`, or not a regular file of ours. */
export function readCacheFile(path: string, maxBytes: number): Buffer | undefined {
	const read = readOwnFileCapped(path, maxBytes);
	return read.state === "ok" ? read.bytes : undefined;
}

/** Replaces the file with `bytes`; the cache directory is made when missing, but never the home. */
export function replaceCacheFile(path: string, bytes: Uint8Array): void {
	const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
	try {
		// Not recursive: a home removed meanwhile is not made again for a cache.
		if (!existsSync(dirname(path))) makePrivateDir(dirname(path));
		const fd = openOwnFile(temp, CREATE_FLAGS);
		try {
			let written = 0;
			while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
		} finally {
			closeSync(fd);
		}
		renameSync(temp, path);
	} catch {
		try {
			unlinkSync(temp);
		} catch {
			// never written
		}
	}
}
