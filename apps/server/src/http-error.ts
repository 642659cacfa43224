import { isAgentSessionError } from "@agent/session-format";

/** The JSON body of every error response: `{ error: { code, message, issues? } }`. */
export interface ErrorBody {
	error: { code: string; message: string; issues?: Array<{ path: string; message: string }> };
}

/** An error that carries its HTTP status; thrown by handlers and rendered by the app's error handler. */
export class HttpError extends Error {
	readonly status: number;
	readonly code: string;
	readonly issues: Array<{ path: string; message: string }> | undefined;
	/** Seconds a client should wait before trying again (a 429's Retry-After header). */
	readonly retryAfter: number | undefined;

	constructor(
		status: number,
		code: string,
		message: string,
		options: { issues?: Array<{ path: string; message: string }>; cause?: unknown; retryAfter?: number } = {},
	) {
		super(message, { cause: options.cause });
		this.name = "HttpError";
		this.status = status;
		this.code = code;
		this.issues = options.issues;
		this.retryAfter = options.retryAfter;
	}

	toBody(): ErrorBody {
		return {
			error: { code: this.code, message: this.message, ...(this.issues ? { issues: this.issues } : {}) },
		};
	}
}

/** The HTTP status for each runtime error code: what the caller did wrong is 4xx, what failed here is 5xx. */
const STATUS_BY_CODE: Record<string, number> = {
	INVALID_SESSION_ID: 400,
	INVALID_RECORD: 400,
	INVALID_ARGUMENT: 400,
	MODEL_NOT_FOUND: 400,
	MODEL_NOT_CONFIGURED: 400,
	SESSION_NOT_FOUND: 404,
	SESSION_LOCKED: 409,
	ABORTED: 503,
	COMPACTION_FAILED: 502,
	MODEL_FAILED: 502,
	TIMED_OUT: 504,
	CORRUPT_RECORD: 500,
	STORAGE_FAILURE: 500,
};

/**
 * Maps anything thrown to an HttpError; unknown errors become a 500 without internals in the
 * message. A missing session is reported by its id alone (the store's message names its directory).
 */
export function toHttpError(error: unknown): HttpError {
	if (error instanceof HttpError) return error;
	if (isAgentSessionError(error, "SESSION_NOT_FOUND")) {
		const id = (error as { sessionId?: unknown }).sessionId;
		const which = typeof id === "string" ? `session ${id}` : "the session";
		return new HttpError(
			404,
			error.code,
			`agent-sessions-server: ${which} was not found; check the id (GET /api/sessions lists the sessions)`,
			{ cause: error },
		);
	}
	if (isAgentSessionError(error)) {
		// A store that is away for a while (its database restarting) says so: retry later.
		const temporary = error.code === "STORAGE_FAILURE" && (error as { temporary?: unknown }).temporary === true;
		return new HttpError(temporary ? 503 : (STATUS_BY_CODE[error.code] ?? 500), error.code, error.message, {
			cause: error,
		});
	}
	return new HttpError(500, "INTERNAL", "agent-sessions-server: the request failed unexpectedly; see the server log", {
		cause: error,
	});
}

/**
 * `text` with every mention of the store's directory (and so of every path below it) replaced by
 * "the store": what clients are told never shows where the store lives.
 */
export function hideStorePath(text: string, storeHome: string | undefined): string {
	if (!storeHome || !text.includes(storeHome)) return text;
	return text.split(storeHome).join("the store");
}
