import type { CompactionPlan } from "@agent/compaction";
import type { AgentSessions, PlanCompactionOptions } from "@agent/session";
import { Command } from "commander";
import { integerOption, sessionIdArgument } from "../args.js";
import type { CliContext } from "../cli-context.js";
import { checkModel } from "../model-option.js";
import { formatCount } from "../render/format.js";
import { renderRecord } from "../render/records.js";

interface CompactFlags {
	model?: string;
	keepRecentTokens?: number;
	instructions?: string;
	dryRun?: boolean;
	json?: boolean;
}

export function registerCompact(ctx: CliContext): Command {
	return new Command("compact")
		.description("summarize the older part of a session's context into a compaction record and print it")
		.argument("<id>", "session id")
		.option("--model <model>", 'the summarizer: "provider/model-id", or "demo" (offline)')
		.option("--keep-recent-tokens <n>", "recent tokens to keep word for word (default: config.yaml)", integerOption(0))
		.option("--instructions <text>", "extra instructions for the summary, e.g. what to focus on")
		.option("--dry-run", "print the plan and the full prompt that would be sent; write nothing")
		.option("--json", "print the compaction record (null when there is nothing to compact); with --dry-run { plan }")
		.action(async (rawId: string, flags: CompactFlags) => {
			const id = sessionIdArgument(rawId);
			if (flags.model !== undefined) await checkModel(flags.model);
			const sessions = await ctx.sessions();
			const options: PlanCompactionOptions = {};
			if (flags.model !== undefined) options.model = flags.model;
			if (flags.keepRecentTokens !== undefined) options.keepRecentTokens = flags.keepRecentTokens;
			if (flags.instructions !== undefined) options.customInstructions = flags.instructions;
			if (flags.dryRun) {
				const preview = await sessions.planCompaction(id, options);
				if (flags.json) {
					return ctx.out.json({
						model: preview.model,
						plan: preview.plan ?? null,
						keepRecentTokens: preview.keepRecentTokens,
					});
				}
				if (preview.keepRecentTokens.capped) ctx.out.note(`Note: ${preview.keepRecentTokens.capped}.`);
				if (!preview.plan) return nothingToCompact(ctx, preview.contextTokens, keepRecent(sessions, options));
				for (const line of renderPlan(preview.model, preview.plan)) await ctx.out.line(line);
				return;
			}
			const record = await sessions.compact(id, options);
			if (flags.json) return ctx.out.json(record ?? null);
			if (!record) {
				const opened = await sessions.open(id);
				return nothingToCompact(ctx, opened.context.estimatedTokens, keepRecent(sessions, options));
			}
			await ctx.out.line(renderRecord(record, ctx.out.paint));
		});
}

function keepRecent(sessions: AgentSessions, options: PlanCompactionOptions): number {
	return options.keepRecentTokens ?? sessions.config.compaction.keepRecentTokens;
}

function nothingToCompact(ctx: CliContext, tokens: number, keepRecentTokens: number): void {
	ctx.out.note(
		`Nothing to compact: the context (~${formatCount(tokens)} tokens) fits in the ${formatCount(keepRecentTokens)} recent tokens kept; lower --keep-recent-tokens to compact anyway.`,
	);
}

/** The plan for people: what is summarized and kept, the files, then the exact prompts. */
function renderPlan(model: string, plan: CompactionPlan): string[] {
	const lines = [
		"Compaction plan (dry run: nothing was written)",
		`summarizer:        ${model}`,
		`firstKeptSeq:      ${plan.firstKeptSeq}`,
		`tokensBefore:      ${plan.tokensBefore} (summarized now)`,
		`contextTokens:     ${plan.contextTokens}`,
		`tokensKept:        ${plan.tokensKept}`,
		`isSplitTurn:       ${plan.isSplitTurn}${plan.turnStartSeq !== undefined ? ` (turn starts at #${plan.turnStartSeq})` : ""}`,
		`previous:          ${plan.previousCompactionSeq !== undefined ? `compaction #${plan.previousCompactionSeq} (update prompt)` : "none (initial prompt)"}`,
		`readFiles:         ${plan.readFiles.length > 0 ? plan.readFiles.join(", ") : "(none)"}`,
		`modifiedFiles:     ${plan.modifiedFiles.length > 0 ? plan.modifiedFiles.join(", ") : "(none)"}`,
		"",
		"=== system prompt ===",
		plan.systemPrompt,
	];
	for (const part of plan.parts) {
		lines.push(
			"",
			`=== prompt: ${part.part} (${part.kind}), ${part.messages.length} message(s), ~${part.estimatedTokens} tokens ===`,
			part.userPrompt,
		);
	}
	return lines;
}
