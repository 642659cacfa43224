import { AgentSessionError } from "@agent/session-format/reading";

/** Every message this package raises starts with this, so a user can tell where it came from. */
export const PREFIX = "@agent/ai-sdk:";

/** An argument of the wrong shape: the message names the field and what to pass instead. */
export function invalidArgument(message: string, cause?: unknown): AgentSessionError {
	return new AgentSessionError("INVALID_ARGUMENT", `${PREFIX} ${message}`, cause === undefined ? undefined : { cause });
}
