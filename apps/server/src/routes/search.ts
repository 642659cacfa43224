import type { Hono } from "hono";
import { queryParams } from "../request-input.js";
import { ownFilter, userOf } from "../request-user.js";
import type { RouteDeps } from "../route-deps.js";
import { searchQuery } from "../schemas.js";
import { SEARCH_COUNT_CAP, SearchResults } from "../search-results.js";

/**
 * Full-text search of message text across sessions: the store's search, as the CLI's `search`
 * uses it, with a count of the hits (up to SEARCH_COUNT_CAP) and pages of them (`offset`). A client
 * that goes away aborts the request's signal, which stops the search in the store (PostgreSQL
 * cancels its statement).
 */
export function registerSearchRoutes(app: Hono, { runtime }: RouteDeps): void {
	const results = new SearchResults();
	app.get("/api/search", async (c) => {
		const query = queryParams(c, searchQuery);
		const offset = query.offset ?? 0;
		const limit = query.limit ?? 50;
		const own = ownFilter(userOf(c));
		// The user's filter is part of the key: one user's pages are never another's.
		const key = JSON.stringify([query.q, query.archived ?? false, query.cwd ?? "", own.createdBy ?? null]);
		const hits = await results.get(key, offset === 0, () =>
			runtime.store.search(query.q, {
				...own,
				...(query.archived !== undefined ? { archived: query.archived } : {}),
				...(query.cwd ? { cwd: query.cwd } : {}),
				limit: SEARCH_COUNT_CAP,
				signal: c.req.raw.signal,
			}),
		);
		const end = offset + limit;
		return c.json({
			hits: hits.slice(offset, end),
			total: hits.length,
			...(hits.length >= SEARCH_COUNT_CAP ? { totalIsMinimum: true } : {}),
			...(end < hits.length ? { nextOffset: end } : {}),
		});
	});
}
