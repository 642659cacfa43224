import type { Hono } from "hono";
import { SERVER_VERSION } from "../version.js";

/** GET /healthz: liveness for load balancers and scripts; no session data, no token needed. */
export function registerHealthRoutes(app: Hono): void {
	app.get("/healthz", (c) => c.json({ ok: true, version: SERVER_VERSION }));
}
