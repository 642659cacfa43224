import type { Hono } from "hono";
import type { RouteDeps } from "../app.js";
import { queryParams } from "../request-input.js";
import { searchQuery } from "../schemas.js";

/**
 * Full-text search of message text across sessions: the store's search, as the CLI's `search` uses
 * it. A client that goes away aborts the request's signal, which stops the search in the store
 * (PostgreSQL cancels its statement).
 */
export function registerSearchRoutes(app: Hono, { runtime }: RouteDeps): void {
	app.get("/api/search", async (c) => {
		const query = queryParams(c, searchQuery);
		const hits = await runtime.store.search(query.q, {
			...(query.archived !== undefined ? { archived: query.archived } : {}),
			...(query.cwd ? { cwd: query.cwd } : {}),
			limit: query.limit ?? 50,
			signal: c.req.raw.signal,
		});
		return c.json({ hits });
	});
}
