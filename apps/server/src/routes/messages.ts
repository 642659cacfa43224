import type { Hono } from "hono";
import type { RouteDeps } from "../app.js";
import { HttpError, toHttpError } from "../http-error.js";
import { jsonBody, queryParams, sessionIdParam } from "../request-input.js";
import { sendMessageBody, sendMessageQuery } from "../schemas.js";

/**
 * POST /api/sessions/:id/messages: queues a turn (S7.10: turns of one session run one at a time,
 * in arrival order). 202 with the queue position at once, or with `?wait=1` 200 once the turn is
 * done, with the records it appended. Replies stream over GET /api/sessions/:id/events.
 */
export function registerMessageRoutes(app: Hono, { runtime, models, shutdown }: RouteDeps): void {
	app.post("/api/sessions/:id/messages", async (c) => {
		const id = sessionIdParam(c);
		const query = queryParams(c, sendMessageQuery);
		const body = await jsonBody(c, sendMessageBody);
		if (body.model) models.check(body.model);
		shutdown.refuseIfStopping();
		const metadata = await runtime.metadata(id);
		models.checkCredentials(body.model ?? (metadata.model || runtime.defaultModel()));
		const turn = runtime.enqueue(id, body.content, {
			...(body.model ? { model: body.model } : {}),
			signal: shutdown.signal,
		});
		if (!query.wait) {
			// The outcome is reported as turn.completed / turn.failed events; nobody awaits it here.
			turn.done.catch(() => {});
			return c.json({ sessionId: id, turnId: turn.turnId, position: turn.position }, 202);
		}
		try {
			const result = await turn.done;
			return c.json({ sessionId: id, turnId: turn.turnId, position: turn.position, records: result.records });
		} catch (error) {
			throw turnFailure(error);
		}
	});
}

/** A turn that failed after it was accepted: the caller's mistakes keep their 4xx, anything else is a 502. */
function turnFailure(error: unknown): HttpError {
	const mapped = toHttpError(error);
	if (mapped.status < 500) return mapped;
	return new HttpError(502, "TURN_FAILED", `agent-sessions-server: the turn failed: ${mapped.message}`, {
		cause: error,
	});
}
