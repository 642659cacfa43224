import type { Hono } from "hono";
import type { RouteDeps } from "../route-deps.js";

/** GET /api/jobs: the scheduled jobs from config.yaml and when each runs next. */
export function registerJobRoutes(app: Hono, { scheduler }: RouteDeps): void {
	app.get("/api/jobs", (c) => c.json({ jobs: scheduler.describe() }));
}
