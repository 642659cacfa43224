import { closeSync, fsyncSync, mkdirSync, openSync } from "node:fs";
import { newSessionId } from "@agent/session-format";
import { errnoCode, storageFailure } from "./errors.js";
import type { Durability } from "./options.js";
import { type SessionPaths, sessionPaths, sessionsRoot } from "./paths.js";

/** Makes the directory of a new session under a fresh id (ids come only from here, never from callers). */
export function makeSessionDir(home: string): SessionPaths {
	const root = sessionsRoot(home);
	try {
		mkdirSync(root, { recursive: true });
	} catch (error) {
		throw storageFailure(`could not create ${root}; check that the store's home is writable`, error);
	}
	for (let attempt = 0; ; attempt++) {
		const paths = sessionPaths(home, newSessionId());
		try {
			mkdirSync(paths.dir);
			return paths;
		} catch (error) {
			if (errnoCode(error) !== "EEXIST" || attempt > 10) {
				throw storageFailure(`could not create the session directory ${paths.dir}`, error);
			}
		}
	}
}

/** Opens the new, not yet existing, log of a session for writing. */
export function createLog(paths: SessionPaths): number {
	try {
		return openSync(paths.log, "wx", 0o644);
	} catch (error) {
		throw storageFailure(`could not create ${paths.log}`, error);
	}
}

/** With fsync durability, makes the new directory entries themselves survive a power loss. */
export function syncNewDirectory(paths: SessionPaths, home: string, durability: Durability): void {
	if (durability !== "fsync") return;
	for (const dir of [paths.dir, sessionsRoot(home)]) {
		const fd = openSync(dir, "r");
		try {
			fsyncSync(fd);
		} finally {
			closeSync(fd);
		}
	}
}
