import { AgentSessionError } from "@agent/session-format";

/** Prefix of every message this package raises. */
export const PREFIX = "@agent/interop:";

/** A source that cannot be read as the format it was taken for: says where and what to do. */
export function invalidSource(where: string, problem: string, advice: string): AgentSessionError {
	return new AgentSessionError("INVALID_ARGUMENT", `${PREFIX} ${where}: ${problem}. ${advice}`);
}

/** A bad argument from the caller (an unknown format, a missing path). */
export function invalidArgument(message: string, cause?: unknown): AgentSessionError {
	return new AgentSessionError("INVALID_ARGUMENT", `${PREFIX} ${message}`, cause === undefined ? undefined : { cause });
}

/** Describes a source for messages: its path, or "the input" when there is none. */
export function sourceLabel(sourcePath: string | undefined): string {
	return sourcePath ?? "the input";
}
