import { hostname } from "node:os";
import {
	AgentSessionError,
	type LeaseHolder,
	SessionLockedError,
	SessionNotFoundError,
} from "@agent/session-format/reading";

/** Every message this package raises starts with this, so a user can tell where it came from. */
export const PREFIX = "@agent/session-fs:";

function prefixed<E extends Error>(error: E): E {
	if (!error.message.startsWith(PREFIX)) error.message = `${PREFIX} ${error.message}`;
	return error;
}

/** A missing session. The message names no path: it reaches API clients, who must not learn where the store lives. */
export function notFound(sessionId: string): SessionNotFoundError {
	return prefixed(new SessionNotFoundError(sessionId));
}

export function locked(
	sessionId: string,
	holder: LeaseHolder | undefined,
	waitedMs: number,
	cause?: unknown,
): SessionLockedError {
	// The lock file keeps the host name's first 80 characters (file-lock.ts).
	const heldHere = holder?.pid === process.pid && [hostname(), hostname().slice(0, 80)].includes(holder.host);
	return prefixed(
		new SessionLockedError(sessionId, holder, waitedMs, { heldHere, ...(cause === undefined ? {} : { cause }) }),
	);
}

/** The lease this writer held was taken over (it went stale): nothing more is written through it. */
export function leaseLost(sessionId: string, cause?: unknown): SessionLockedError {
	const error = new SessionLockedError(sessionId, undefined, 0, cause === undefined ? undefined : { cause });
	error.message = `${PREFIX} the write lease on session ${sessionId} was lost (another writer took it over after it went stale, e.g. while this process was stalled); nothing was written. Take a new lease and retry`;
	return error;
}

export function storageFailure(message: string, cause?: unknown): AgentSessionError {
	return new AgentSessionError("STORAGE_FAILURE", `${PREFIX} ${message}`, cause === undefined ? undefined : { cause });
}

export function invalidArgument(message: string): AgentSessionError {
	return new AgentSessionError("INVALID_ARGUMENT", `${PREFIX} ${message}`);
}

export function aborted(what: string, cause?: unknown): AgentSessionError {
	return new AgentSessionError(
		"ABORTED",
		`${PREFIX} ${what} was aborted by its signal; nothing was written`,
		cause === undefined ? undefined : { cause },
	);
}

/** The errno code of a Node.js system error, if it is one. */
export function errnoCode(error: unknown): string | undefined {
	return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
		? error.code
		: undefined;
}
