import { homedir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { assertSessionId } from "@agent/session-format/reading";

/** The store's home: the `home` option, else $AGENT_HOME, else ~/.agent. */
export function resolveHome(home?: string): string {
	const chosen = home ?? process.env.AGENT_HOME;
	return resolve(chosen && chosen.length > 0 ? chosen : join(homedir(), ".agent"));
}

export function sessionsRoot(home: string): string {
	return join(home, "sessions");
}

/** A session's append-only record log, in its directory. */
export const LOG_FILE = "session.jsonl";
/** A session's metadata (derived from the log), in its directory. */
export const METADATA_FILE = "metadata.json";

/**
 * A session's metadata.json under the sessions root, for a listing that walks thousands of
 * directories: joined by hand (path.join costs a listing of thousands) from a name the caller
 * already checked is a session id.
 */
export function metadataFileIn(root: string, id: string): string {
	return `${root}${sep}${id}${sep}${METADATA_FILE}`;
}

/** A file in the store's cache directory ($AGENT_HOME/cache: derived, disposable; cache-files.ts). */
export function cachePath(home: string, name: string): string {
	return join(home, "cache", name);
}

/** The listing's metadata cache, kept on disk between processes (metadata-snapshot.ts); disposable. */
export function metadataSnapshotPath(home: string): string {
	return cachePath(home, "metadata-snapshot.json");
}

/** The change mark that tells a listing whether its snapshot still holds (metadata-changes.ts); disposable. */
export function metadataChangesPath(home: string): string {
	return cachePath(home, "metadata-changes");
}

/** Every path of one session. Built only from a validated id: nothing a caller types becomes a path. */
export interface SessionPaths {
	readonly id: string;
	readonly dir: string;
	/** The append-only record log. */
	readonly log: string;
	/** The derived cache of the log, replaced atomically (temp + rename). */
	readonly metadata: string;
	/** The store's change mark, replaced after each change of a metadata.json. */
	readonly changes: string;
	/** The cross-process lease: a directory made with mkdir (proper-lockfile), holding an entry that names its holder. */
	readonly lockDir: string;
	/** Taken (mkdir) while removing the lock of a holder that died, so two processes never both do it. */
	readonly takeoverGuard: string;
	/** Where bytes of a torn tail are kept when a writer cuts them off the log. */
	readonly tornTails: string;
}

/** The takeover guard of a session, beside its lock directory. */
export function takeoverGuardOf(lockDir: string): string {
	return join(dirname(lockDir), "lease.takeover");
}

export function sessionPaths(home: string, id: string): SessionPaths {
	const dir = join(sessionsRoot(home), assertSessionId(id));
	const lockDir = join(dir, "lease.lock");
	return {
		id,
		dir,
		log: join(dir, LOG_FILE),
		metadata: join(dir, METADATA_FILE),
		changes: metadataChangesPath(home),
		lockDir,
		takeoverGuard: takeoverGuardOf(lockDir),
		tornTails: join(dir, "torn-tails.bin"),
	};
}
