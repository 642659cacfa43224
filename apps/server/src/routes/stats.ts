import { summarizeSessions } from "@agent/session-format";
import type { Hono } from "hono";
import { ownFilter, userOf } from "../request-user.js";
import type { RouteDeps } from "../route-deps.js";

/**
 * GET /api/stats: sessions, tokens and cost of what the caller may see (every session for an
 * admin, else their own), in total, per model and per user (`byUser`: the sessions' creators), as
 * the CLI's `stats` shows them; and `user`: who asks, with their spend today (UTC) and daily cap
 * when they have one.
 */
export function registerStatsRoutes(app: Hono, { runtime, guard, spend }: RouteDeps): void {
	app.get("/api/stats", async (c) => {
		const user = userOf(c);
		const own = ownFilter(user);
		const stats =
			own.createdBy === undefined && runtime.store.summarize
				? await runtime.store.summarize()
				: summarizeSessions((await runtime.list({ ...own, archived: true })).sessions);
		const limit = guard.dailySpendLimitOf(user);
		return c.json({
			...stats,
			user: {
				...(user.name !== undefined ? { name: user.name } : {}),
				admin: user.admin,
				...(limit !== undefined && user.name !== undefined
					? { dailySpendLimit: limit, spentToday: await spend.spentToday(user.name) }
					: {}),
			},
		});
	});
}
