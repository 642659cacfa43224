import { headOf, isSessionId } from "@agent/session-format";
import type { Context } from "hono";
import type { z } from "zod";
import { HttpError } from "./http-error.js";

/** zod issues as `{ path, message }`, the path dotted ("content.0.text"), empty for the whole value. */
export function formatIssues(error: z.ZodError): Array<{ path: string; message: string }> {
	return error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
}

function describeIssues(where: string, issues: Array<{ path: string; message: string }>): string {
	const shown = issues
		.slice(0, 3)
		.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message))
		.join("; ");
	return `agent-sessions-server: the ${where} is invalid: ${shown}`;
}

/**
 * A path parameter decoded strictly: the segment as the client sent it, its percent escapes
 * decoded as UTF-8. An escape that is not one (`%FF`, `%G1`, a lone `%`, bytes that are no UTF-8)
 * is a 400: decoded leniently it stayed as typed, so `a%FFb` addressed the same identity as
 * `a%25FFb`. Hono's own `param()` is that lenient decoding.
 */
export function strictPathParam(c: Context, name: string, segment: number): string {
	const raw = new URL(c.req.url).pathname.split("/")[segment] ?? "";
	try {
		return decodeURIComponent(raw);
	} catch {
		throw new HttpError(
			400,
			"INVALID_ARGUMENT",
			`agent-sessions-server: the ${name} in the path holds an invalid percent escape (${JSON.stringify(headOf(raw, 80))}); encode it with encodeURIComponent (a % itself is %25)`,
		);
	}
}

/**
 * The `:id` path parameter, checked against the ULID pattern before anything touches the disk (S7.8).
 * Throws a 400 INVALID_SESSION_ID otherwise.
 */
export function sessionIdParam(c: Context): string {
	const id = c.req.param("id");
	if (!isSessionId(id)) {
		const shown = JSON.stringify(headOf(id ?? "", 64));
		throw new HttpError(
			400,
			"INVALID_SESSION_ID",
			`agent-sessions-server: ${shown} is not a session id; session ids are 26-character ULIDs such as 01JMRZ8X1Q9V5E2H3K4M6N7P8R`,
		);
	}
	return id;
}

/**
 * The JSON body, validated by `schema`. It must be sent as `Content-Type: application/json` (415
 * otherwise, even when empty): a cross-site form or a no-cors fetch can only send text/plain,
 * form data or no type, so CSRF protection does not rest on the Origin check alone. An empty
 * body counts as `{}`. Malformed JSON and a body failing the schema are 400s that say why.
 */
export async function jsonBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.output<T>> {
	if (!isJsonMediaType(c.req.header("content-type"))) {
		const sent = c.req.header("content-type");
		throw new HttpError(
			415,
			"UNSUPPORTED_MEDIA_TYPE",
			`agent-sessions-server: send the body as JSON with \`Content-Type: application/json\` (got ${sent ? JSON.stringify(sent.slice(0, 100)) : "no Content-Type"})`,
		);
	}
	let text: string;
	try {
		text = await c.req.text();
	} catch (error) {
		throw new HttpError(400, "INVALID_BODY", "agent-sessions-server: the request body could not be read", {
			cause: error,
		});
	}
	let value: unknown = {};
	if (text.trim().length > 0) {
		try {
			value = JSON.parse(text);
		} catch (error) {
			throw new HttpError(
				400,
				"INVALID_JSON",
				`agent-sessions-server: the request body is not valid JSON (${(error as Error).message})`,
				{ cause: error },
			);
		}
	}
	const result = schema.safeParse(value);
	if (!result.success) {
		const issues = formatIssues(result.error);
		throw new HttpError(400, "INVALID_BODY", describeIssues("request body", issues), { issues });
	}
	return result.data;
}

/** The query string (first value of each key), validated by `schema`; a failure is a 400 that says why. */
export function queryParams<T extends z.ZodType>(c: Context, schema: T): z.output<T> {
	const result = schema.safeParse(c.req.query());
	if (!result.success) {
		const issues = formatIssues(result.error);
		throw new HttpError(400, "INVALID_QUERY", describeIssues("query string", issues), { issues });
	}
	return result.data;
}

/** True for `application/json`, with or without parameters (`; charset=utf-8`), in any case. */
export function isJsonMediaType(header: string | undefined): boolean {
	if (header === undefined) return false;
	const semicolon = header.indexOf(";");
	const mediaType = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
	return mediaType === "application/json";
}
