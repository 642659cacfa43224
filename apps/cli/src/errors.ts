import { type AgentErrorCode, isAgentSessionError } from "@agent/session-format/reading";

/** Exit codes: 0 ok, 1 failure, 2 usage error or invalid id. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A mistake in how the CLI was called: a bad option value, a missing confirmation. Exits 2. */
export class UsageError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "UsageError";
	}
}

/** A failure the CLI already explained (e.g. verify found problems): exits 1 without another message. */
export class ReportedFailure extends Error {
	readonly exitCode: number;

	constructor(message = "reported", exitCode = EXIT_FAILURE) {
		super(message);
		this.name = "ReportedFailure";
		this.exitCode = exitCode;
	}
}

const AGENT_ERROR_CODES: ReadonlySet<string> = new Set<AgentErrorCode>([
	"INVALID_SESSION_ID",
	"SESSION_NOT_FOUND",
	"SESSION_LOCKED",
	"CORRUPT_RECORD",
	"INVALID_RECORD",
	"INVALID_ARGUMENT",
	"STORAGE_FAILURE",
	"COMPACTION_FAILED",
	"MODEL_NOT_FOUND",
	"MODEL_NOT_CONFIGURED",
	"MODEL_FAILED",
	"TIMED_OUT",
	"ABORTED",
]);

/**
 * The code of an error our packages raised, or undefined. Checked by shape, not class: the
 * bundled CLI holds its own copy of @agent/session-format, and a package loaded beside the bundle
 * (@agent/interop) throws the errors of another copy.
 */
export function agentErrorCode(error: unknown): AgentErrorCode | undefined {
	if (isAgentSessionError(error)) return error.code;
	const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
	return typeof code === "string" && AGENT_ERROR_CODES.has(code) ? (code as AgentErrorCode) : undefined;
}

/** The exit code for an error: 2 for usage errors and invalid ids, else 1. */
export function exitCodeFor(error: unknown): number {
	if (error instanceof ReportedFailure) return error.exitCode;
	if (error instanceof UsageError) return EXIT_USAGE;
	if (agentErrorCode(error) === "INVALID_SESSION_ID") return EXIT_USAGE;
	return EXIT_FAILURE;
}

/**
 * The code --json prints with an error: the store's (SESSION_NOT_FOUND, SESSION_LOCKED...), USAGE
 * for a mistake in the command line, the system's (ENOENT...), else FAILURE.
 */
export function errorCode(error: unknown): string {
	const agentCode = agentErrorCode(error);
	if (agentCode !== undefined) return agentCode;
	if (error instanceof UsageError) return "USAGE";
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	return typeof code === "string" ? code : "FAILURE";
}

/**
 * The one line printed for an error: its message on a single line. Errors from our packages
 * already say what to do; for anything else (a bug, a system error) the line points at --debug.
 */
export function errorLine(error: unknown): string {
	const message = forOperators(oneLine(error instanceof Error ? error.message : String(error)));
	const agentCode = agentErrorCode(error);
	if (agentCode !== undefined) {
		const hint = CLI_HINTS[agentCode];
		return `error: ${message}${hint ? ` (${hint})` : ""}`;
	}
	if (error instanceof UsageError) return `error: ${message}`;
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	const prefix = typeof code === "string" ? `${code}: ` : "";
	return `error: ${prefix}${message} (run again with --debug for the stack trace)`;
}

/**
 * What the CLI adds to a library error: the command that helps. The packages' messages speak of
 * their API (list(), verify()), not of this CLI, which their users may not have.
 */
const CLI_HINTS: Partial<Record<AgentErrorCode, string>> = {
	INVALID_SESSION_ID: "`agent-sessions list` shows the sessions",
	SESSION_NOT_FOUND: "`agent-sessions list --all` shows every session",
	CORRUPT_RECORD: "`agent-sessions verify ID` reports every problem, `verify --repair ID` acknowledges them",
};

/**
 * A message as operators read it: without the package that raised it (`@agent/session-fs: `) or
 * the spec section a rule comes from (` (S7.12)`); --debug still shows the original. Both
 * patterns start with a literal, so they run in linear time.
 */
export function forOperators(message: string): string {
	return message.replace(/@agent\/[a-z-]+: /g, "").replace(/ \((?:spec )?S7\.\d+\)/g, "");
}

/** The stack trace and causes, for --debug. */
export function debugDetails(error: unknown): string {
	const parts: string[] = [];
	let current: unknown = error;
	for (let depth = 0; current !== undefined && depth < 8; depth++) {
		parts.push(current instanceof Error ? (current.stack ?? String(current)) : String(current));
		current = current instanceof Error ? current.cause : undefined;
		if (current !== undefined) parts.push("caused by:");
	}
	return parts.join("\n");
}

/**
 * The lines of `text`, trimmed, without blank ones, joined by spaces: linear in the length. (The
 * regex `\s*\n\s*` it replaces backtracked quadratically on a long run of spaces: 100,000 took 12 s.)
 */
function oneLine(text: string): string {
	const lines = text.split("\n");
	const kept: string[] = [];
	for (const line of lines) {
		const trimmed = line.trim();
		if (trimmed.length > 0) kept.push(trimmed);
	}
	return kept.join(" ");
}
