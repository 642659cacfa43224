import { AgentSessionError } from "@agent/session-format/reading";

/** Every message this package raises starts with this, so a user can tell where it came from. */
export const PREFIX = "@agent/openai-agents:";

export function invalidArgument(message: string, cause?: unknown): AgentSessionError {
	return new AgentSessionError("INVALID_ARGUMENT", `${PREFIX} ${message}`, cause === undefined ? undefined : { cause });
}

/**
 * Another writer changed the session between this run's read of its history and its write: the
 * run's items would land after history it never saw, so nothing is written. SESSION_LOCKED, as
 * when the lease itself could not be had: the session belonged to someone else meanwhile.
 */
export function historyChanged(sessionId: string, seenLeaf: number | null, leaf: number | null): AgentSessionError {
	return new AgentSessionError(
		"SESSION_LOCKED",
		`${PREFIX} session ${sessionId} was written by another run after this run read its history (its leaf moved from ${seenLeaf ?? "empty"} to ${leaf ?? "empty"}); nothing of this run was written. Run it again to continue from the new history, or run under session.withLease(() => run(...)) so that runs on this session take turns`,
	);
}
