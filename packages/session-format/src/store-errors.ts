import { AgentSessionError, type LeaseHolder, SessionLockedError, SessionNotFoundError } from "./errors.js";

/**
 * The errors a store raises, worded alike by every backend: each message starts with the
 * backend's package name (`prefix`, e.g. "@agent/session-fs:"), so a user can tell where it came
 * from. A backend adds what only it can fail at (a database away, a file system error).
 */
export interface StoreErrors {
	readonly prefix: string;
	/** A missing session. The message names no path or URL: it reaches API clients. */
	notFound(sessionId: string): SessionNotFoundError;
	/** Another writer holds the session's lease (`holder` when known), after a wait of `waitedMs`. */
	locked(sessionId: string, holder: LeaseHolder | undefined, waitedMs: number, cause?: unknown): SessionLockedError;
	/** A lease that can write no more (released, taken over, its connection gone): `why` ends "the write lease on session X …". */
	leaseGone(sessionId: string, why: string, cause?: unknown): SessionLockedError;
	/** A lease used after its release: the caller's mistake (INVALID_ARGUMENT), whichever store. */
	leaseReleased(sessionId: string): AgentSessionError;
	invalidArgument(message: string): AgentSessionError;
	aborted(what: string, cause?: unknown): AgentSessionError;
}

export interface StoreErrorOptions {
	/**
	 * Whether a lease's holder is the process that asks (its pid and host, which only the backend
	 * knows): SESSION_LOCKED then says to write through the lease it holds (SessionLockedError's heldHere).
	 */
	heldHere?: (holder: LeaseHolder) => boolean;
}

export function storeErrors(packageName: string, settings: StoreErrorOptions = {}): StoreErrors {
	const prefix = `${packageName}:`;
	const prefixed = <E extends Error>(error: E): E => {
		if (!error.message.startsWith(prefix)) error.message = `${prefix} ${error.message}`;
		return error;
	};
	const options = (cause: unknown) => (cause === undefined ? undefined : { cause });
	return {
		prefix,
		notFound: (sessionId) => prefixed(new SessionNotFoundError(sessionId)),
		locked: (sessionId, holder, waitedMs, cause) => {
			const heldHere = holder !== undefined && settings.heldHere?.(holder) === true;
			return prefixed(new SessionLockedError(sessionId, holder, waitedMs, { ...options(cause), heldHere }));
		},
		leaseGone(sessionId, why, cause) {
			const error = new SessionLockedError(sessionId, undefined, 0, options(cause));
			error.message = `${prefix} the write lease on session ${sessionId} ${why}; nothing was written. Take a new lease and retry`;
			return error;
		},
		leaseReleased: (sessionId) =>
			new AgentSessionError(
				"INVALID_ARGUMENT",
				`${prefix} the lease on session ${sessionId} was released; take a new one with store.lease()`,
			),
		invalidArgument: (message) => new AgentSessionError("INVALID_ARGUMENT", `${prefix} ${message}`),
		aborted: (what, cause) =>
			new AgentSessionError(
				"ABORTED",
				`${prefix} ${what} was aborted by its signal; nothing was written`,
				options(cause),
			),
	};
}
