import { hostname } from "node:os";
import { AgentSessionError } from "@agent/session-format";
import { storeErrors } from "@agent/session-format/store-kit";

/** The package every message this one raises starts with, so a user can tell where it came from. */
export const PACKAGE = "@agent/session-pg";
export const PREFIX = `${PACKAGE}:`;

const errors = storeErrors(PACKAGE, {
	heldHere: (holder) => holder.pid === process.pid && holder.host === hostname(),
});

export const notFound = errors.notFound;
export const locked = errors.locked;
export const invalidArgument = errors.invalidArgument;
export const leaseReleased = errors.leaseReleased;

/**
 * The connection holding a session's lease was lost (the database restarted, the network broke):
 * the lock went with it, so nothing more is written through that lease. Temporary (servers answer
 * 503): the next turn takes a new lease once the database is back.
 */
export function leaseConnectionLost(sessionId: string, cause?: unknown): AgentSessionError {
	const error = new AgentSessionError(
		"STORAGE_FAILURE",
		`${PREFIX} the database connection holding the write lease on session ${sessionId} was lost; nothing more was written through it. Retry once PostgreSQL is reachable`,
		cause === undefined ? undefined : { cause },
	);
	return Object.assign(error, { temporary: true });
}

/**
 * Every lease connection of this instance stayed taken for the whole wait: it runs as many
 * sessions' turns at once as maxLeases allows. Temporary (servers answer 503).
 */
export function leasesExhausted(sessionId: string, maxLeases: number, waitedMs: number): AgentSessionError {
	const error = new AgentSessionError(
		"STORAGE_FAILURE",
		`${PREFIX} no connection came free for the write lease on session ${sessionId} in ${waitedMs} ms: this instance already holds ${maxLeases} leases (maxLeases), one per session whose turn runs. Retry, or raise maxLeases (PostgreSQL's max_connections must allow it)`,
	);
	return Object.assign(error, { temporary: true });
}

/**
 * The database could not be reached or failed a statement: STORAGE_FAILURE (servers answer 503),
 * with the cause chained. Errors this package raised itself pass through unchanged.
 */
export function storageFailure(what: string, cause: unknown): AgentSessionError {
	if (cause instanceof AgentSessionError) return cause;
	const reason = cause instanceof Error ? cause.message : String(cause);
	if (isDataError(cause)) {
		// The store's own checks (@agent/session-format's text rules and limits) refuse what PostgreSQL
		// cannot hold before any statement; this is the fallback, and it is the data, not the database.
		return new AgentSessionError(
			"INVALID_ARGUMENT",
			`${PREFIX} ${what} failed: PostgreSQL cannot hold a value it was given (${reason}); nothing was written. Change that value (no U+0000 in names, no lone surrogates, names and keys within their limits) and retry`,
			{ cause },
		);
	}
	const error = new AgentSessionError(
		"STORAGE_FAILURE",
		`${PREFIX} ${what} failed (${reason}); nothing more was written. Check that PostgreSQL is reachable and retry`,
		{ cause },
	);
	// The database is away (restarting, unreachable): retrying later will do. Servers answer 503.
	if (isUnavailable(cause)) Object.assign(error, { temporary: true });
	return error;
}

/** Connection-level failures: refused, reset, cut by a shutdown or restart, or not accepting connections yet. */
export function isUnavailable(error: unknown): boolean {
	const state = sqlState(error) ?? "";
	if (/^(08|57P0)/.test(state) || ["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND"].includes(state)) {
		return true;
	}
	const message = error instanceof Error ? error.message : "";
	return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i.test(
		message,
	);
}

/** The SQLSTATE of a pg error, if it is one. */
export function sqlState(error: unknown): string | undefined {
	return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
		? error.code
		: undefined;
}

/** The statement's data was wrong (SQLSTATE class 22, or 54000: e.g. an index entry too large), not the database. */
export function isDataError(error: unknown): boolean {
	const state = sqlState(error) ?? "";
	return /^22[0-9A-Z]{3}$/.test(state) || state === "54000";
}

/** lock_timeout ran out (55P03 lock_not_available). */
export function isLockTimeout(error: unknown): boolean {
	return sqlState(error) === "55P03";
}
