import type { Hono } from "hono";
import { HttpError } from "../http-error.js";
import type { ServerMetrics } from "../metrics.js";
import type { Readiness } from "../readiness.js";
import { bearerToken, tokenMatches } from "../security.js";
import { SERVER_VERSION } from "../version.js";

export interface HealthDeps {
	readiness: Readiness;
	metrics: ServerMetrics;
	/** The tokens that may read /metrics: the API's, and server.metrics_token. None: open (a loopback server without a token). */
	metricsTokens: readonly string[];
}

/**
 * GET /healthz: liveness (the process answers; nothing else is checked). GET /readyz: readiness
 * for a load balancer, 503 while starting, draining or while the store does not answer. Neither
 * needs a token or shows session data. GET /metrics: Prometheus text, behind the API's token or
 * server.metrics_token.
 */
export function registerHealthRoutes(app: Hono, { readiness, metrics, metricsTokens }: HealthDeps): void {
	app.get("/healthz", (c) => c.json({ ok: true, version: SERVER_VERSION }));

	app.get("/readyz", async (c) => {
		const answer = await readiness.check();
		return c.json({ ...answer, version: SERVER_VERSION }, answer.ready ? 200 : 503);
	});

	app.get("/metrics", async (c) => {
		if (metricsTokens.length > 0) {
			const presented = bearerToken(c.req.header("authorization"));
			if (!metricsTokens.some((token) => tokenMatches(presented, token))) {
				c.header("WWW-Authenticate", 'Bearer realm="agent-sessions"');
				throw new HttpError(
					401,
					"UNAUTHORIZED",
					"agent-sessions-server: /metrics needs `Authorization: Bearer <token>`: the API's token or config.yaml's server.metrics_token",
				);
			}
		}
		return c.body(await metrics.text(), 200, { "Content-Type": metrics.contentType });
	});
}
