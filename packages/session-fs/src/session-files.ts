import { closeSync, fsyncSync, openSync, rmSync } from "node:fs";
import { newSessionId, type SessionMetadata } from "@agent/session-format/reading";
import { errnoCode, storageFailure } from "./errors.js";
import { writeMetadataFile } from "./metadata-file.js";
import type { Durability } from "./options.js";
import { type SessionPaths, sessionPaths, sessionsRoot } from "./paths.js";
import { CREATE_FLAGS, DIR_READ_FLAGS, makePrivateDir, openOwnFile } from "./safe-files.js";

/** Makes the directory of a new session under a fresh id (ids come only from here, never from callers). */
export function makeSessionDir(home: string): SessionPaths {
	makeSessionsRoot(home);
	for (let attempt = 0; ; attempt++) {
		const paths = sessionPaths(home, newSessionId());
		try {
			makePrivateDir(paths.dir);
			return paths;
		} catch (error) {
			if (errnoCode(error) !== "EEXIST" || attempt > 10) {
				throw storageFailure(`could not create the session directory ${paths.dir}`, error);
			}
		}
	}
}

/** The store's home and its sessions directory, made private (0700) when this makes them. */
export function makeSessionsRoot(home: string): string {
	const root = sessionsRoot(home);
	try {
		makePrivateDir(home, { recursive: true });
		makePrivateDir(root, { recursive: true });
	} catch (error) {
		throw storageFailure(`could not create ${root}; check that the store's home is writable`, error);
	}
	return root;
}

/** Opens the new, not yet existing, log of a session for writing (mode 0600). */
export function createLog(paths: SessionPaths): number {
	try {
		return openOwnFile(paths.log, CREATE_FLAGS);
	} catch (error) {
		throw storageFailure(`could not create ${paths.log}`, error);
	}
}

/** With fsync durability, makes the new directory entries themselves survive a power loss. */
export function syncNewDirectory(paths: SessionPaths, home: string, durability: Durability): void {
	if (durability !== "fsync") return;
	for (const dir of [paths.dir, sessionsRoot(home)]) {
		const fd = openSync(dir, DIR_READ_FLAGS);
		try {
			fsyncSync(fd);
		} finally {
			closeSync(fd);
		}
	}
}

/** A new session's empty log and its metadata, in the directory just made for it; nothing of it is kept on failure. */
export function fillNewSession(
	paths: SessionPaths,
	metadata: SessionMetadata,
	options: { home: string; durability: Durability },
): void {
	try {
		closeSync(createLog(paths));
		writeMetadataFile(paths, metadata, options.durability === "fsync");
		syncNewDirectory(paths, options.home, options.durability);
	} catch (error) {
		rmSync(paths.dir, { recursive: true, force: true });
		throw storageFailure(
			`could not create session ${paths.id} in ${paths.dir} (${(error as Error).message}); nothing of it was kept. Free disk space or fix the error and retry`,
			error,
		);
	}
}
