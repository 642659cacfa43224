import { type SessionStats, summarizeSessions } from "@agent/session-format/reading";
import { Command } from "commander";
import type { CliContext } from "../cli-context.js";
import type { Paint } from "../io/colors.js";
import { formatBytes, formatCost, formatCount } from "../render/format.js";
import { renderTable } from "../render/table.js";
import { listSessions, storeStats } from "../sessions-query.js";

export function registerStats(ctx: CliContext): Command {
	return new Command("stats")
		.description(
			"sessions, records, bytes, tokens and cost by model and by user: of one session, one user's, or the whole store",
		)
		.argument("[id]", "session id (default: every session, archived ones included)")
		.option("--user <name>", "only the sessions this user created (a server's user: createdBy)")
		.option(
			"--json",
			"print { sessions, archivedSessions, records, messages, compactions, bytes, totals, byModel, byUser }",
		)
		.action(async (rawId: string | undefined, flags: { json?: boolean; user?: string }) => {
			const store = await ctx.readStore();
			const stats =
				rawId !== undefined
					? summarizeSessions([await store.metadata(await ctx.sessionId(rawId))])
					: flags.user !== undefined
						? summarizeSessions(await listSessions(store, { archived: true, createdBy: flags.user }))
						: await storeStats(store);
			if (flags.json) return ctx.out.json(stats);
			for (const line of renderStats(stats, ctx.out.paint)) await ctx.out.line(line);
		});
}

function renderStats(stats: SessionStats, paint: Paint): string[] {
	const { totals } = stats;
	const lines = [
		`${paint("gray", "sessions:   ")}${formatCount(stats.sessions)}${stats.archivedSessions > 0 ? ` (${formatCount(stats.archivedSessions)} archived)` : ""}`,
		`${paint("gray", "records:    ")}${formatCount(stats.records)} (${formatCount(stats.messages)} messages, ${formatCount(stats.compactions)} compactions)`,
		`${paint("gray", "bytes:      ")}${formatBytes(stats.bytes)}`,
		`${paint("gray", "tokens:     ")}${formatCount(totals.totalTokens)} (in ${formatCount(totals.input)}, out ${formatCount(totals.output)}, cache read ${formatCount(totals.cacheRead)}, cache write ${formatCount(totals.cacheWrite)})`,
		`${paint("gray", "cost:       ")}${formatCost(totals.cost)} over ${formatCount(totals.turns)} turn(s)`,
	];
	const models = Object.entries(stats.byModel);
	if (models.length > 0)
		lines.push(
			"",
			...renderTable(
				[
					{ header: "MODEL" },
					{ header: "SESSIONS", right: true },
					{ header: "TURNS", right: true },
					{ header: "INPUT", right: true },
					{ header: "OUTPUT", right: true },
					{ header: "TOTAL TOKENS", right: true },
					{ header: "COST", right: true },
				],
				models.map(([model, entry]) => [
					model,
					formatCount(entry.sessions),
					formatCount(entry.turns),
					formatCount(entry.input),
					formatCount(entry.output),
					formatCount(entry.totalTokens),
					formatCost(entry.cost),
				]),
			),
		);
	const users = Object.entries(stats.byUser ?? {});
	if (users.length > 0) {
		lines.push(
			"",
			...renderTable(
				[
					{ header: "USER" },
					{ header: "SESSIONS", right: true },
					{ header: "TURNS", right: true },
					{ header: "TOTAL TOKENS", right: true },
					{ header: "COST", right: true },
				],
				users.map(([user, entry]) => [
					user,
					formatCount(entry.sessions),
					formatCount(entry.turns),
					formatCount(entry.totalTokens),
					formatCost(entry.cost),
				]),
			),
		);
	}
	return lines;
}
