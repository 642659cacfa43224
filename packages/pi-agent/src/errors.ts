import { AgentSessionError } from "@agent/session-format/reading";

/** Every message this package raises starts with this, so a user can tell where it came from. */
export const PREFIX = "@agent/pi-agent:";

export function invalidArgument(message: string): AgentSessionError {
	return new AgentSessionError("INVALID_ARGUMENT", `${PREFIX} ${message}`);
}

/**
 * Another writer moved the session's leaf since this agent loaded it or last wrote: a run would
 * continue from messages the session no longer ends with. SESSION_LOCKED, as when the lease
 * itself could not be had: the session belonged to someone else meanwhile.
 */
export function sessionMoved(sessionId: string, seenLeaf: number | null, leaf: number | null): AgentSessionError {
	return new AgentSessionError(
		"SESSION_LOCKED",
		`${PREFIX} session ${sessionId} was written by someone else since this agent loaded it (its leaf moved from ${seenLeaf ?? "empty"} to ${leaf ?? "empty"}); the run was not started and nothing was written. Call reload() to take the session's messages into the agent, then prompt again`,
	);
}
