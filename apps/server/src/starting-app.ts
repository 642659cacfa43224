import { Hono } from "hono";
import type { AccessGuard } from "./access.js";
import { apiResponseHeaders, hostAndOriginGuard } from "./app.js";
import { HttpError } from "./http-error.js";
import type { Log } from "./log.js";
import { requestLog } from "./request-log.js";
import { type HealthDeps, registerHealthRoutes } from "./routes/health.js";

/**
 * What the listener answers while the server waits for its store: /healthz (alive), /readyz (503,
 * starting), /metrics, and a 503 STARTING for everything else, so a load balancer or a client
 * sees a server starting up rather than a refused connection.
 */
export function createStartingApp(guard: AccessGuard, health: HealthDeps, log: Log): Hono {
	const app = new Hono();
	app.use("*", requestLog(log, health.metrics));
	app.use("*", apiResponseHeaders);
	app.use("*", hostAndOriginGuard(guard));
	registerHealthRoutes(app, health);
	app.all("*", (c) => {
		c.header("Retry-After", "2");
		throw new HttpError(
			503,
			"STARTING",
			"agent-sessions-server: the server is starting (waiting for its store); retry in a moment",
		);
	});
	app.onError((error, c) => {
		const httpError = error instanceof HttpError ? error : new HttpError(500, "INTERNAL", "the request failed");
		return c.json(httpError.toBody(), httpError.status as 400);
	});
	return app;
}
