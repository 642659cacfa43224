import { hostname } from "node:os";
import { AgentSessionError } from "@agent/session-format/reading";
import { storeErrors } from "@agent/session-format/store-kit";

/** The package every message this one raises starts with, so a user can tell where it came from. */
export const PACKAGE = "@agent/session-fs";
export const PREFIX = `${PACKAGE}:`;

const errors = storeErrors(PACKAGE, {
	// The lock file keeps the host name's first 80 characters (file-lock.ts).
	heldHere: (holder) => holder.pid === process.pid && [hostname(), hostname().slice(0, 80)].includes(holder.host),
});

/** A missing session. The message names no path: it reaches API clients, who must not learn where the store lives. */
export const notFound = errors.notFound;
export const locked = errors.locked;
export const invalidArgument = errors.invalidArgument;
export const aborted = errors.aborted;
export const leaseReleased = errors.leaseReleased;

/** The lease this writer held was taken over (it went stale): nothing more is written through it. */
export function leaseLost(sessionId: string, cause?: unknown) {
	return errors.leaseGone(
		sessionId,
		"was lost (another writer took it over after it went stale, e.g. while this process was stalled)",
		cause,
	);
}

export function storageFailure(message: string, cause?: unknown): AgentSessionError {
	return new AgentSessionError("STORAGE_FAILURE", `${PREFIX} ${message}`, cause === undefined ? undefined : { cause });
}

/** The errno code of a Node.js system error, if it is one. */
export function errnoCode(error: unknown): string | undefined {
	return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
		? error.code
		: undefined;
}
