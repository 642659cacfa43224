import { randomBytes } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { Log, LogFields } from "./log.js";
import type { ServerMetrics } from "./metrics.js";

/** Probes and scrapes come every few seconds: logged at debug, so they do not drown the requests. */
const QUIET_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);
const SESSION_IN_PATH = /^\/api\/sessions\/([0-9A-HJKMNP-TV-Z]{26})(?:\/|$)/;
/** A caller's X-Request-Id is kept when it is this tame; else the server makes one. */
const REQUEST_ID = /^[\w.:-]{1,128}$/;
const LOG_FIELDS = "requestLogFields";

/** Adds fields to the request's log line (e.g. the turn a send queued). */
export function noteForLog(c: Context, fields: LogFields): void {
	const vars = c as unknown as { get(key: string): unknown; set(key: string, value: unknown): void };
	const noted = (vars.get(LOG_FIELDS) as LogFields | undefined) ?? {};
	vars.set(LOG_FIELDS, { ...noted, ...fields });
}

/**
 * One log line per request (`request`: id, method, path, route, status, duration, user when an
 * auth layer set one, session, and what a route noted) and the request metrics. The request id is
 * the caller's X-Request-Id, else a new one, and is sent back in X-Request-Id.
 */
export function requestLog(log: Log, metrics: ServerMetrics): MiddlewareHandler {
	return async (c, next) => {
		const started = performance.now();
		const given = c.req.header("x-request-id");
		const requestId = given && REQUEST_ID.test(given) ? given : randomBytes(8).toString("hex");
		let failed: unknown;
		try {
			await next();
		} catch (error) {
			failed = error;
			throw error;
		} finally {
			const status = failed === undefined ? c.res.status : 500;
			if (failed === undefined) c.res.headers.set("X-Request-Id", requestId);
			const seconds = (performance.now() - started) / 1000;
			const route = routeOf(c, status);
			metrics.httpRequests.inc({ method: c.req.method, route, status: String(status) });
			metrics.httpDuration.observe({ method: c.req.method, route }, seconds);
			const quiet = QUIET_PATHS.has(c.req.path) || (!c.req.path.startsWith("/api/") && status < 400);
			log(quiet ? "debug" : status >= 500 ? "warn" : "info", "request", {
				requestId,
				method: c.req.method,
				path: c.req.path,
				route,
				status,
				durationMs: Math.round(seconds * 1000 * 10) / 10,
				user: userOf(c),
				sessionId: SESSION_IN_PATH.exec(c.req.path)?.[1],
				...((c as unknown as { get(key: string): unknown }).get(LOG_FIELDS) as LogFields | undefined),
			});
		}
	};
}

/** The matched route's pattern (few values: a metrics label), or "unmatched". */
function routeOf(c: Context, status: number): string {
	try {
		const path = routePath(c, -1);
		return status === 404 && (path === "*" || path === "/*") ? "unmatched" : path;
	} catch {
		return "unmatched";
	}
}

/**
 * The user an authentication layer put on the request (`c.set("user", …)`: a name, or an object
 * with a `name`); undefined when there is none (a single-token server).
 */
function userOf(c: Context): string | undefined {
	const user = (c as unknown as { get(key: string): unknown }).get("user");
	if (typeof user === "string") return user;
	const name = (user as { name?: unknown } | undefined)?.name;
	return typeof name === "string" ? name : undefined;
}
