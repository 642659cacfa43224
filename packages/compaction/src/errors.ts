import { AgentSessionError } from "@agent/session-format/reading";

const PREFIX = "@agent/compaction:";

/** A compaction or branch summary could not be produced; nothing should be appended. */
export function compactionFailed(message: string, cause?: unknown): AgentSessionError {
	return new AgentSessionError(
		"COMPACTION_FAILED",
		`${PREFIX} ${message}`,
		cause === undefined ? undefined : { cause },
	);
}

/** The caller's AbortSignal fired; nothing should be appended. */
export function compactionAborted(cause?: unknown): AgentSessionError {
	return new AgentSessionError(
		"ABORTED",
		`${PREFIX} compaction was aborted by its AbortSignal; nothing was produced, so nothing needs to be undone (run it again to compact)`,
		cause === undefined ? undefined : { cause },
	);
}

/** An argument is out of range or of the wrong shape. */
export function invalidArgument(message: string): AgentSessionError {
	return new AgentSessionError("INVALID_ARGUMENT", `${PREFIX} ${message}`);
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw compactionAborted(signal.reason);
}
