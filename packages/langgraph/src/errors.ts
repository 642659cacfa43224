import { AgentSessionError, isAgentSessionError } from "@agent/session-format/reading";

/** Every message this package raises starts with this, so a user can tell where it came from. */
export const PREFIX = "@agent/langgraph:";

export function invalidArgument(message: string): AgentSessionError {
	return new AgentSessionError("INVALID_ARGUMENT", `${PREFIX} ${message}`);
}

export function storageFailure(message: string, cause?: unknown): AgentSessionError {
	return new AgentSessionError("STORAGE_FAILURE", `${PREFIX} ${message}`, cause === undefined ? undefined : { cause });
}

/** An append refused because another writer added records since this process last looked (its seqs are taken). */
export function isSeqConflict(error: unknown): boolean {
	return isAgentSessionError(error, "INVALID_RECORD") && (error as { path?: unknown }).path === "seq";
}

export function isNotFound(error: unknown): boolean {
	return isAgentSessionError(error, "SESSION_NOT_FOUND");
}
