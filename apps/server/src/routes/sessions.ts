import type { Hono } from "hono";
import { jsonBody, queryParams, sessionIdParam } from "../request-input.js";
import { creatorOf, ownFilter, userOf } from "../request-user.js";
import type { RouteDeps } from "../route-deps.js";
import { createSessionBody, listQuery, updateSessionBody } from "../schemas.js";

/** The session collection and one session's metadata: list, create, get, rename/archive, delete. */
export function registerSessionRoutes(app: Hono, { runtime, models, basePath, owners }: RouteDeps): void {
	app.get("/api/sessions", async (c) => {
		const query = queryParams(c, listQuery);
		const page = await runtime.list({
			// In the store, before paging: a user's page is full of their own sessions.
			...ownFilter(userOf(c)),
			...(query.search ? { search: query.search } : {}),
			...(query.archived !== undefined ? { archived: query.archived } : {}),
			...(query.source ? { source: query.source } : {}),
			...(query.identity ? { identityKey: query.identity } : {}),
			limit: query.limit ?? 50,
			...(query.cursor ? { cursor: query.cursor } : {}),
		});
		// A session listed is one a page may show: its feed can then tell whose later events are.
		for (const metadata of page.sessions) owners.remember(metadata);
		return c.json(page);
	});

	app.post("/api/sessions", async (c) => {
		const body = await jsonBody(c, createSessionBody);
		if (body.model) models.check(body.model);
		const metadata = await runtime.create({
			...(body.name ? { name: body.name } : {}),
			...(body.model ? { model: body.model } : {}),
			...(body.systemPromptOverride ? { systemPromptOverride: body.systemPromptOverride } : {}),
			...(body.identityKey ? { identityKey: body.identityKey } : {}),
			...(body.deferred ? { deferred: true } : {}),
			...creatorOf(userOf(c)),
		});
		return c.json(metadata, 201, { Location: `${basePath}/api/sessions/${metadata.id}` });
	});

	app.get("/api/sessions/:id", async (c) => {
		const id = sessionIdParam(c);
		return c.json(await runtime.metadata(id));
	});

	app.patch("/api/sessions/:id", async (c) => {
		const id = sessionIdParam(c);
		const body = await jsonBody(c, updateSessionBody);
		let metadata = await runtime.metadata(id);
		if (body.name !== undefined && body.name !== metadata.name) metadata = await runtime.rename(id, body.name);
		if (body.archived === true && !metadata.archivedAt) metadata = await runtime.archive(id);
		if (body.archived === false && metadata.archivedAt) metadata = await runtime.unarchive(id);
		return c.json(metadata);
	});

	app.delete("/api/sessions/:id", async (c) => {
		const id = sessionIdParam(c);
		await runtime.metadata(id);
		await runtime.delete(id);
		return c.body(null, 204);
	});
}
