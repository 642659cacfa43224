import { closeSync, fsyncSync } from "node:fs";
import type { HeldSession } from "@agent/session-format/store-kit";
import { storageFailure } from "./errors.js";
import { writeMetadataFile } from "./metadata-file.js";
import type { ResolvedOptions } from "./options.js";
import type { SessionPaths } from "./paths.js";
import { makePrivateDir } from "./safe-files.js";
import { createLog, makeSessionsRoot, syncNewDirectory } from "./session-files.js";
import { appendAll } from "./write-bytes.js";

/**
 * Writes a held deferred session to disk (its first assistant message came, or an operation
 * needs files): the directory, the whole log at once, then its metadata.
 */
export function writeDeferredSession(paths: SessionPaths, held: HeldSession, options: ResolvedOptions): void {
	try {
		makeSessionsRoot(options.home);
		makePrivateDir(paths.dir);
	} catch (error) {
		throw storageFailure(`could not create the session directory ${paths.dir}`, error);
	}
	const bytes = Buffer.from(held.lines.map((line) => `${line}\n`).join(""));
	const fd = createLog(paths);
	try {
		appendAll(fd, bytes, 0, `the deferred records of session ${paths.id}`);
		if (options.durability === "fsync") fsyncSync(fd);
	} finally {
		closeSync(fd);
	}
	writeMetadataFile(paths, held.metadata, options.durability === "fsync");
	syncNewDirectory(paths, options.home, options.durability);
}
