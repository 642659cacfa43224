import type { Hono } from "hono";
import { CompactionRuns } from "../compaction-runs.js";
import { jsonBody, sessionIdParam } from "../request-input.js";
import { userOf } from "../request-user.js";
import type { RouteDeps } from "../route-deps.js";
import { branchBody, compactBody, forkBody, labelBody } from "../schemas.js";
import { checkSpend } from "../spend-ledger.js";

/** Compact now (and stop it), fork into a new session, move the active leaf (branch), or label a record. */
export function registerSessionActionRoutes(
	app: Hono,
	{ runtime, models, shutdown, guard, spend, basePath }: RouteDeps,
): void {
	const compactions = new CompactionRuns();
	app.post("/api/sessions/:id/compact", async (c) => {
		const id = sessionIdParam(c);
		const body = await jsonBody(c, compactBody);
		if (body.model) models.check(body.model);
		shutdown.refuseIfStopping();
		await runtime.metadata(id);
		await checkSpend(guard, spend, userOf(c));
		shutdown.refuseIfStopping();
		const run = await compactions.run(id, shutdown.signal, (signal) =>
			runtime.compact(id, {
				signal,
				// Progress can then say "call i of n": the page's bar moves by calls done of calls planned.
				estimateChunks: true,
				...(body.model ? { model: body.model } : {}),
				...(body.customInstructions ? { customInstructions: body.customInstructions } : {}),
				...(body.keepRecentTokens !== undefined ? { keepRecentTokens: body.keepRecentTokens } : {}),
			}),
		);
		if (run.cancelled) return c.json({ sessionId: id, compacted: false, cancelled: true });
		const record = run.value;
		return c.json({ sessionId: id, compacted: record !== undefined, ...(record ? { record } : {}) });
	});

	app.post("/api/sessions/:id/compact/cancel", async (c) => {
		const id = sessionIdParam(c);
		await runtime.metadata(id);
		return c.json({ sessionId: id, cancelled: compactions.cancel(id) });
	});

	app.post("/api/sessions/:id/fork", async (c) => {
		const id = sessionIdParam(c);
		const body = await jsonBody(c, forkBody);
		const metadata = await runtime.fork(id, {
			...(body.atSeq !== undefined ? { atSeq: body.atSeq } : {}),
			...(body.name ? { name: body.name } : {}),
		});
		return c.json(metadata, 201, { Location: `${basePath}/api/sessions/${metadata.id}` });
	});

	app.post("/api/sessions/:id/branch", async (c) => {
		const id = sessionIdParam(c);
		const body = await jsonBody(c, branchBody);
		if (body.model) models.check(body.model);
		if (body.summarize) shutdown.refuseIfStopping();
		return c.json(
			await runtime.branch(id, body.atSeq, {
				summarize: body.summarize === true,
				...(body.model ? { model: body.model } : {}),
				signal: shutdown.signal,
			}),
		);
	});

	app.post("/api/sessions/:id/labels", async (c) => {
		const id = sessionIdParam(c);
		const body = await jsonBody(c, labelBody);
		return c.json(await runtime.label(id, body.targetSeq, body.label));
	});
}
