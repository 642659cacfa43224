import { headOf } from "./text-cut.js";

/**
 * The error codes shared by every `@agent` package. Each error carries one of them,
 * an actionable message prefixed with the package that raised it, and an optional cause.
 */
export type AgentErrorCode =
	| "INVALID_SESSION_ID"
	| "SESSION_NOT_FOUND"
	| "SESSION_LOCKED"
	| "CORRUPT_RECORD"
	| "INVALID_RECORD"
	| "INVALID_ARGUMENT"
	| "STORAGE_FAILURE"
	| "COMPACTION_FAILED"
	| "MODEL_NOT_FOUND"
	| "MODEL_NOT_CONFIGURED"
	| "MODEL_FAILED"
	| "TIMED_OUT"
	| "ABORTED";

export class AgentSessionError extends Error {
	readonly code: AgentErrorCode;

	constructor(code: AgentErrorCode, message: string, options?: { cause?: unknown }) {
		super(message, options);
		this.name = "AgentSessionError";
		this.code = code;
	}
}

/** True when `error` is an AgentSessionError, optionally with the given code. */
export function isAgentSessionError(error: unknown, code?: AgentErrorCode): error is AgentSessionError {
	return error instanceof AgentSessionError && (code === undefined || error.code === code);
}

export class InvalidSessionIdError extends AgentSessionError {
	readonly sessionId: string;

	constructor(sessionId: unknown) {
		const shown = typeof sessionId === "string" ? JSON.stringify(headOf(sessionId, 64)) : typeof sessionId;
		super(
			"INVALID_SESSION_ID",
			`@agent/session-format: ${shown} is not a session id; session ids are 26-character ULIDs such as 01JMRZ8X1Q9V5E2H3K4M6N7P8R (a store's list() gives them)`,
		);
		this.name = "InvalidSessionIdError";
		this.sessionId = typeof sessionId === "string" ? sessionId : String(sessionId);
	}
}

export class InvalidRecordError extends AgentSessionError {
	/** Where in the record the problem is, e.g. `content.0.text`; empty for the whole record. */
	readonly path: string;
	/** The index of the record in the batch it came in, when it came in a batch. */
	readonly index: number | undefined;

	constructor(message: string, options: { path?: string; index?: number; cause?: unknown } = {}) {
		super("INVALID_RECORD", message, { cause: options.cause });
		this.name = "InvalidRecordError";
		this.path = options.path ?? "";
		this.index = options.index;
	}
}

export class SessionNotFoundError extends AgentSessionError {
	readonly sessionId: string;

	constructor(sessionId: string, where?: string) {
		super(
			"SESSION_NOT_FOUND",
			`session ${sessionId} was not found${where ? ` in ${where}` : ""}; check the id (list({ archived: true }) gives every session) and the store's home`,
		);
		this.name = "SessionNotFoundError";
		this.sessionId = sessionId;
	}
}

/** Who holds a session's single-writer lease. */
export interface LeaseHolder {
	pid: number;
	host: string;
	/** ISO time the lease was taken. */
	since: string;
}

export class SessionLockedError extends AgentSessionError {
	readonly sessionId: string;
	readonly holder: LeaseHolder | undefined;

	/**
	 * `heldHere`: the holder is the process that asks (a store knows its own pid and host). Then
	 * the advice is to write through the lease it holds, not to stop a process: that would be itself.
	 */
	constructor(
		sessionId: string,
		holder: LeaseHolder | undefined,
		waitedMs: number,
		options?: { cause?: unknown; heldHere?: boolean },
	) {
		const waited = `waited ${Math.round(waitedMs)} ms`;
		const message =
			holder && options?.heldHere
				? `session ${sessionId} is being written under a lease this process holds (process ${holder.pid} on ${holder.host}, since ${holder.since}); ${waited}. ` +
					"A write outside that lease waits for it like any other writer's: append through the lease (SessionLease.append), " +
					"or after it is released (a running turn of the runtime holds it until the turn ends)"
				: `session ${sessionId} is being written by ${holder ? `process ${holder.pid} on ${holder.host} (since ${holder.since})` : "another process"}; ${waited}. ` +
					"Retry later, wait longer, or stop that process (a crashed holder's lease goes stale and is taken over)";
		super("SESSION_LOCKED", message, options?.cause === undefined ? undefined : { cause: options.cause });
		this.name = "SessionLockedError";
		this.sessionId = sessionId;
		this.holder = holder;
	}
}

/** Thrown in strict reading mode at the first bad line in the middle of a log. */
export class CorruptRecordError extends AgentSessionError {
	readonly line: number;
	readonly byteOffset: number;
	readonly reason: string;

	constructor(where: string, line: number, byteOffset: number, reason: string) {
		super(
			"CORRUPT_RECORD",
			`${where}: line ${line} (byte offset ${byteOffset}) is not a valid record: ${reason}. The store's verify() reports every problem of the log and repair() acknowledges it; readers in lenient mode skip such lines`,
		);
		this.name = "CorruptRecordError";
		this.line = line;
		this.byteOffset = byteOffset;
		this.reason = reason;
	}
}
