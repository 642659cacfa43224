import type { Hono } from "hono";
import { HttpError } from "../http-error.js";
import type { ServerMetrics } from "../metrics.js";
import type { Readiness } from "../readiness.js";
import { bearerToken } from "../security.js";
import { SERVER_VERSION } from "../version.js";

export interface HealthDeps {
	readiness: Readiness;
	metrics: ServerMetrics;
	/** Whether a request presenting this bearer token may read /metrics (server.metrics_token or an admin's token). */
	mayReadMetrics: (presented: string | undefined) => boolean;
}

/**
 * GET /healthz: liveness (the process answers; nothing else is checked). GET /readyz: readiness
 * for a load balancer, 503 while starting, draining or while the store does not answer. Neither
 * needs a token or shows session data. GET /metrics: Prometheus text, behind an admin's token or
 * server.metrics_token.
 */
export function registerHealthRoutes(app: Hono, { readiness, metrics, mayReadMetrics }: HealthDeps): void {
	app.get("/healthz", (c) => c.json({ ok: true, version: SERVER_VERSION }));

	app.get("/readyz", async (c) => {
		const answer = await readiness.check();
		return c.json({ ...answer, version: SERVER_VERSION }, answer.ready ? 200 : 503);
	});

	app.get("/metrics", async (c) => {
		if (!mayReadMetrics(bearerToken(c.req.header("authorization")))) {
			c.header("WWW-Authenticate", 'Bearer realm="agent-sessions"');
			throw new HttpError(
				401,
				"UNAUTHORIZED",
				"agent-sessions-server: /metrics needs `Authorization: Bearer <token>`: an admin's token or config.yaml's server.metrics_token",
			);
		}
		return c.body(await metrics.text(), 200, { "Content-Type": metrics.contentType });
	});
}
