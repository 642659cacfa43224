import { headOf } from "@agent/session-format";
import type { Context, Hono } from "hono";
import { HttpError } from "../http-error.js";
import { sessionIdParam } from "../request-input.js";
import type { RouteDeps } from "../route-deps.js";

/**
 * Cancelling turns: POST (or DELETE) /api/sessions/:id/turns/:turnId/cancel stops a queued or
 * running turn; POST /api/sessions/:id/cancel stops whichever turn of the session is running.
 * The turn ends as cancelled (turn.failed with code ABORTED); what it stored stays stored.
 */
export function registerTurnRoutes(app: Hono, { runtime }: RouteDeps): void {
	const cancelOne = async (c: Context) => {
		const id = sessionIdParam(c);
		const turnId = c.req.param("turnId") ?? "";
		await runtime.metadata(id);
		if (runtime.cancel(id, turnId) === undefined) {
			throw new HttpError(
				404,
				"TURN_NOT_FOUND",
				`agent-sessions-server: session ${id} has no queued or running turn ${JSON.stringify(headOf(turnId, 64))}; it may have ended already`,
			);
		}
		return c.json({ sessionId: id, turnId, cancelled: true }, 202);
	};
	app.post("/api/sessions/:id/turns/:turnId/cancel", cancelOne);
	app.delete("/api/sessions/:id/turns/:turnId", cancelOne);

	app.post("/api/sessions/:id/cancel", async (c) => {
		const id = sessionIdParam(c);
		await runtime.metadata(id);
		const turnId = runtime.cancel(id);
		if (turnId === undefined) return c.json({ sessionId: id, cancelled: false });
		return c.json({ sessionId: id, turnId, cancelled: true }, 202);
	});
}
