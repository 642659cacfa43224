import { type AgentSessions, checkParentSeq, isInterruption, type QueuedTurn, type SendOptions } from "@agent/session";
import { isAgentSessionError } from "@agent/session-format";
import type { Context, Hono } from "hono";
import { HttpError, toHttpError } from "../http-error.js";
import { jsonBody, queryParams, sessionIdParam, strictPathParam } from "../request-input.js";
import { noteForLog } from "../request-log.js";
import { creatorOf, userOf } from "../request-user.js";
import type { RouteDeps, TurnLimits } from "../route-deps.js";
import { identityKeyParam, sendMessageBody, sendMessageQuery } from "../schemas.js";
import { checkSpend } from "../spend-ledger.js";

/**
 * POST /api/sessions/:id/messages: queues a turn (S7.10: turns of one session run one at a time,
 * in arrival order). 202 with the queue position at once, or with `?wait=1` 200 once the turn is
 * done, with the records it appended. Replies stream over GET /api/sessions/:id/events.
 * POST /api/identities/:key/messages: the same, to the latest session of an identity key (one is
 * created when it has none; `created` says so).
 */
export function registerMessageRoutes(app: Hono, { runtime, models, shutdown, guard, spend, limits }: RouteDeps): void {
	app.post("/api/sessions/:id/messages", async (c) => {
		const id = sessionIdParam(c);
		const query = queryParams(c, sendMessageQuery);
		const body = await jsonBody(c, sendMessageBody);
		if (body.model) models.check(body.model);
		shutdown.refuseIfStopping();
		const metadata = await runtime.metadata(id);
		models.checkCredentials(body.model ?? (metadata.model || runtime.defaultModel()));
		await checkSpend(guard, spend, userOf(c));
		// A 400 now, before anything is queued; the turn checks again under the lease.
		if (body.parentSeq !== undefined) await checkParentSeq(runtime.store, id, body.parentSeq);
		// Checked again next to the enqueue: a shutdown that began while this request awaited sees every turn it must wait for.
		shutdown.refuseIfStopping();
		refuseIfQueueFull(c, runtime, id, limits);
		const turn = runtime.enqueue(id, body.content, sendOptions(body, shutdown.signal));
		return answer(c, id, turn, query.wait === true, shutdown.signal);
	});

	app.post("/api/identities/:key/messages", async (c) => {
		// Path: /api/identities/:key/messages (segment 3).
		const parsed = identityKeyParam.safeParse(strictPathParam(c, "identity key", 3));
		if (!parsed.success) {
			throw new HttpError(
				400,
				"INVALID_ARGUMENT",
				"agent-sessions-server: the identity key in the path is empty or longer than 500 characters",
			);
		}
		const query = queryParams(c, sendMessageQuery);
		const body = await jsonBody(c, sendMessageBody);
		if (body.parentSeq !== undefined) {
			throw new HttpError(
				400,
				"INVALID_ARGUMENT",
				"agent-sessions-server: parentSeq names a record of one session; send to POST /api/sessions/:id/messages to continue a branch",
			);
		}
		if (body.model) models.check(body.model);
		shutdown.refuseIfStopping();
		models.checkCredentials(body.model ?? runtime.defaultModel());
		const user = userOf(c);
		await checkSpend(guard, spend, user);
		// A user's identity keys are theirs: only their sessions are found, a new one is theirs. An
		// admin's send finds any session of the key (as before users existed) and creates as admin.
		const { sessionId, created } = await runtime.sessionForIdentity(
			parsed.data,
			{ ...creatorOf(user), ...(body.model ? { model: body.model } : {}) },
			user.admin || user.name === undefined ? undefined : user.name,
		);
		shutdown.refuseIfStopping();
		refuseIfQueueFull(c, runtime, sessionId, limits);
		const turn = runtime.enqueue(sessionId, body.content, sendOptions(body, shutdown.signal));
		return answer(c, sessionId, turn, query.wait === true, shutdown.signal, { identityKey: parsed.data, created });
	});
}

/** A 429 when the session already has `maxQueuedTurns` turns waiting behind its running one. */
function refuseIfQueueFull(c: Context, runtime: AgentSessions, sessionId: string, limits: TurnLimits): void {
	const waiting = Math.max(0, runtime.queueDepth(sessionId) - 1);
	if (waiting < limits.maxQueuedTurns) return;
	c.header("Retry-After", "5");
	throw new HttpError(
		429,
		"QUEUE_FULL",
		`agent-sessions-server: session ${sessionId} already has ${waiting} turns waiting (server.max_queued_turns is ${limits.maxQueuedTurns}); send again once some have run`,
	);
}

function sendOptions(
	body: { model?: string | undefined; thinkingLevel?: string | undefined; parentSeq?: number | undefined },
	signal: AbortSignal,
): SendOptions {
	return {
		...(body.model ? { model: body.model } : {}),
		...(body.thinkingLevel ? { thinkingLevel: body.thinkingLevel } : {}),
		...(body.parentSeq !== undefined ? { parentSeq: body.parentSeq } : {}),
		signal,
	};
}

async function answer(
	c: Context,
	sessionId: string,
	turn: QueuedTurn,
	wait: boolean,
	stopping: AbortSignal,
	extra: object = {},
) {
	noteForLog(c, { turnId: turn.turnId });
	// 202 promises that the turn is in the store's turn journal: it runs, or is recorded as interrupted.
	await turn.accepted;
	const accepted = { sessionId, turnId: turn.turnId, position: turn.position, ...extra };
	if (!wait) {
		// The outcome is reported as turn.completed / turn.failed events; nobody awaits it here.
		turn.done.catch(() => {});
		return c.json(accepted, 202);
	}
	try {
		const result = await turn.done;
		return c.json({ ...accepted, records: result.records });
	} catch (error) {
		throw turnFailure(error, stopping);
	}
}

/** A turn that failed after it was accepted: the caller's mistakes keep their 4xx, anything else is a 502. */
function turnFailure(error: unknown, stopping: AbortSignal): HttpError {
	if (isAgentSessionError(error, "ABORTED") && (isInterruption(error) || stopping.aborted)) {
		return new HttpError(
			503,
			"TURN_INTERRUPTED",
			"agent-sessions-server: the server stopped before the turn ended; it is recorded as interrupted (what it wrote stays stored); send it again to get an answer",
			{ cause: error },
		);
	}
	if (isAgentSessionError(error, "ABORTED")) {
		return new HttpError(
			409,
			"TURN_CANCELLED",
			"agent-sessions-server: the turn was cancelled (or the server is stopping); what it stored stays stored",
			{ cause: error },
		);
	}
	const mapped = toHttpError(error);
	// The caller's mistakes keep their 4xx; a store away for a while keeps its 503 (retry later), a
	// turn stopped at its deadline its 504 TIMED_OUT (turn_timeout_seconds, model_call_timeout_seconds).
	if (mapped.status < 500 || mapped.status === 503 || mapped.status === 504) return mapped;
	return new HttpError(502, "TURN_FAILED", `agent-sessions-server: the turn failed: ${mapped.message}`, {
		cause: error,
	});
}
