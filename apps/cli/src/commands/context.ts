import { readModelContext } from "@agent/session/model-context";
import { Command } from "commander";
import { integerOption, SESSION_ID_HELP } from "../args.js";
import type { CliContext } from "../cli-context.js";
import { formatCount } from "../render/format.js";
import { problemWarning } from "../render/json-records.js";
import { contentFull } from "../render/records.js";

interface ContextFlags {
	leaf?: number;
	json?: boolean;
}

export function registerContext(ctx: CliContext): Command {
	return new Command("context")
		.description("print exactly what the LLM would get for a session: its messages and their estimated size")
		.argument("<id>", SESSION_ID_HELP)
		.option("--leaf <seq>", "build the context for this record instead of the active leaf", integerOption(1))
		.option("--json", "print { leafSeq, systemPrompt, messages, estimatedTokens, compaction, pruned, truncated }")
		.action(async (rawId: string, flags: ContextFlags) => {
			const id = await ctx.sessionId(rawId);
			// The runtime's modelContext, from the store and config.yaml alone: no LLM stack to load.
			const context = await readModelContext(await ctx.readStore(), id, {
				...(ctx.home !== undefined ? { home: ctx.home } : {}),
				...(flags.leaf !== undefined ? { leafSeq: flags.leaf } : {}),
				onProblem: (problem) => ctx.out.note(problemWarning(problem)),
			});
			if (flags.json) {
				return ctx.out.json({
					leafSeq: context.leafSeq,
					systemPrompt: context.systemPrompt ?? null,
					messages: context.messages,
					estimatedTokens: context.estimatedTokens,
					compaction: context.compaction ?? null,
					// compaction.prune_tool_outputs: the tool results whose output the model gets as a placeholder.
					pruned: context.pruned ?? null,
					// Blocks too big for the model's window, cut to head and tail (the log keeps them whole).
					truncated: context.truncated ?? null,
				});
			}
			const paint = ctx.out.paint;
			const compaction = context.compaction
				? `; compaction #${context.compaction.seq} keeps from #${context.compaction.firstKeptSeq}`
				: "";
			const pruned = context.pruned
				? `; old output of ${context.pruned.seqs.length} tool result(s) pruned (~${formatCount(context.pruned.tokens)} tokens)`
				: "";
			const truncated = context.truncated
				? `; ${context.truncated.seqs.length} oversized message(s) cut to head and tail (~${formatCount(context.truncated.tokens)} tokens)`
				: "";
			await ctx.out.line(
				paint(
					"gray",
					`${context.messages.length} message(s), ~${formatCount(context.estimatedTokens)} tokens, leaf #${context.leafSeq ?? "-"}${compaction}${pruned}${truncated}`,
				),
			);
			if (context.systemPrompt) {
				await ctx.out.line();
				await ctx.out.line(paint("magenta", "[system]"));
				await ctx.out.line(context.systemPrompt);
			}
			for (const message of context.messages) {
				const origin = message.origin === "message" ? "" : ` (${message.origin.replace(/_/g, " ")})`;
				const from = message.seq === undefined ? "" : paint("dim", ` #${message.seq}`);
				await ctx.out.line();
				await ctx.out.line(
					`${paint(message.role === "user" ? "cyan" : message.role === "assistant" ? "green" : "yellow", `[${message.role}]`)}${origin}${from}`,
				);
				await ctx.out.line(contentFull(message.content));
			}
		});
}
