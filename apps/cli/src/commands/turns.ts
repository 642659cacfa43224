import { Command } from "commander";
import { SESSION_ID_HELP } from "../args.js";
import type { CliContext } from "../cli-context.js";
import { formatCost, formatCount, shortTime } from "../render/format.js";
import { renderTable } from "../render/table.js";

interface TurnsFlags {
	json?: boolean;
}

export function registerTurns(ctx: CliContext): Command {
	return new Command("turns")
		.description("list a session's turns: outcome, duration, model, tokens and cost (its turn records)")
		.argument("<id>", SESSION_ID_HELP)
		.option("--json", "print the turn records as an array")
		.action(async (rawId: string, flags: TurnsFlags) => {
			const id = await ctx.sessionId(rawId);
			const turns = await (await ctx.sessions()).turns(id);
			if (flags.json) return ctx.out.json(turns);
			if (turns.length === 0) return ctx.out.note("No turns recorded in this session.");
			const paint = ctx.out.paint;
			const rows = turns.map((turn) => [
				shortTime(turn.startedAt),
				turn.outcome === "completed"
					? paint("green", turn.outcome)
					: paint(turn.outcome === "failed" ? "red" : "yellow", turn.outcome),
				`${(turn.durationMs / 1000).toFixed(1)} s`,
				turn.model ?? "-",
				turn.usage ? formatCount(turn.usage.totalTokens) : "-",
				turn.usage?.cost ? formatCost(turn.usage.cost.total) : "-",
				turn.firstSeq !== undefined ? `#${turn.firstSeq}–#${turn.lastSeq ?? turn.firstSeq}` : "-",
				turn.error ? `${turn.error.code}: ${turn.error.message}` : "",
			]);
			const table = renderTable(
				[
					{ header: "STARTED" },
					{ header: "OUTCOME" },
					{ header: "DURATION", right: true },
					{ header: "MODEL", max: 32 },
					{ header: "TOKENS", right: true },
					{ header: "COST", right: true },
					{ header: "SEQS" },
					{ header: "ERROR", max: 60 },
				],
				rows,
			);
			for (const line of table) await ctx.out.line(line);
		});
}
