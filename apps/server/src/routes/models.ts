import type { Hono } from "hono";
import type { RouteDeps } from "../route-deps.js";

/** GET /api/models: the models a session can use now (the demo model and every provider with a key). */
export function registerModelRoutes(app: Hono, { runtime, models }: RouteDeps): void {
	app.get("/api/models", (c) => c.json(models.list(runtime.defaultModel())));
}
