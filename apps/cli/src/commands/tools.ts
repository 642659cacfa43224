import { Command } from "commander";
import { SESSION_ID_HELP } from "../args.js";
import type { CliContext } from "../cli-context.js";
import { shortTime } from "../render/format.js";
import { renderTable } from "../render/table.js";

interface ToolsFlags {
	json?: boolean;
}

export function registerTools(ctx: CliContext): Command {
	return new Command("tools")
		.description("list a session's tool executions with duration and outcome (derived from its log)")
		.argument("<id>", SESSION_ID_HELP)
		.option(
			"--json",
			"print an array of { toolCallId, toolName, callSeq, resultSeq, startedAt, endedAt, durationMs, outcome }",
		)
		.action(async (rawId: string, flags: ToolsFlags) => {
			const id = await ctx.sessionId(rawId);
			const executions = await (await ctx.sessions()).toolLog(id);
			if (flags.json) return ctx.out.json(executions);
			if (executions.length === 0) return ctx.out.note("No tool executions in this session.");
			const paint = ctx.out.paint;
			const rows = executions.map((execution) => [
				shortTime(execution.startedAt),
				execution.toolName,
				execution.durationMs === undefined ? "-" : `${execution.durationMs} ms`,
				execution.outcome === "ok"
					? paint("green", "ok")
					: execution.outcome === "error"
						? paint("red", "error")
						: paint("yellow", "no result"),
				`#${execution.callSeq}${execution.resultSeq === undefined ? "" : ` → #${execution.resultSeq}`}`,
				execution.toolCallId,
			]);
			const table = renderTable(
				[
					{ header: "STARTED" },
					{ header: "TOOL", max: 40 },
					{ header: "DURATION", right: true },
					{ header: "OUTCOME" },
					{ header: "SEQS" },
					{ header: "CALL ID", max: 40 },
				],
				rows,
			);
			for (const line of table) await ctx.out.line(line);
		});
}
