import { type CompactionPlan, renderPartPrompt } from "@agent/compaction";
import type { AgentSessions, PlanCompactionOptions } from "@agent/session";
import { Command } from "commander";
import { integerOption, SESSION_ID_HELP } from "../args.js";
import type { CliContext } from "../cli-context.js";
import { UsageError } from "../errors.js";
import { checkModel } from "../model-option.js";
import { formatCount } from "../render/format.js";
import { renderRecord } from "../render/records.js";

interface CompactFlags {
	model?: string;
	keepRecentTokens?: number;
	instructions?: string;
	dryRun?: boolean;
	prompts?: boolean;
	json?: boolean;
}

export function registerCompact(ctx: CliContext): Command {
	return new Command("compact")
		.description("summarize the older part of a session's context into a compaction record and print it")
		.argument("<id>", SESSION_ID_HELP)
		.option("--model <model>", 'the summarizer: "provider/model-id", or "demo" (offline)')
		.option("--keep-recent-tokens <n>", "recent tokens to keep word for word (default: config.yaml)", integerOption(0))
		.option("--instructions <text>", "extra instructions for the summary, e.g. what to focus on")
		.option("--dry-run", "print the plan (what is summarized and kept, files, tokens); write nothing")
		.option(
			"--prompts",
			"with --dry-run: also print the full prompts, the whole summarized history serialized (large on a long session)",
		)
		.option(
			"--json",
			"print the compaction record (null when there is nothing to compact); with --dry-run { model, plan } (and prompts with --prompts)",
		)
		.action(async (rawId: string, flags: CompactFlags) => {
			const id = await ctx.sessionId(rawId);
			if (flags.model !== undefined) await checkModel(flags.model);
			const sessions = await ctx.sessions();
			const options: PlanCompactionOptions = {};
			if (flags.model !== undefined) options.model = flags.model;
			if (flags.keepRecentTokens !== undefined) options.keepRecentTokens = flags.keepRecentTokens;
			if (flags.instructions !== undefined) options.customInstructions = flags.instructions;
			if (flags.prompts && !flags.dryRun) {
				throw new UsageError("--prompts only goes with --dry-run (a compaction sends its prompts chunk by chunk)");
			}
			if (flags.dryRun) {
				const preview = await sessions.planCompaction(id, options);
				const plan = preview.plan;
				const prompts = plan && flags.prompts ? await partPrompts(plan) : undefined;
				if (flags.json) {
					return ctx.out.json({
						model: preview.model,
						plan: plan ?? null,
						keepRecentTokens: preview.keepRecentTokens,
						...(prompts ? { prompts } : {}),
					});
				}
				if (preview.keepRecentTokens.capped) ctx.out.note(`Note: ${preview.keepRecentTokens.capped}.`);
				if (!plan) return nothingToCompact(ctx, preview.contextTokens, keepRecent(sessions, options));
				for (const line of renderPlan(preview.model, plan, prompts)) await ctx.out.line(line);
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

/** Every part's whole user prompt, as sent when its material fits the summarizer's window in one call. */
async function partPrompts(plan: CompactionPlan): Promise<string[]> {
	const prompts: string[] = [];
	for (const part of plan.parts) prompts.push(await renderPartPrompt(plan, part));
	return prompts;
}

/** The plan for people: what is summarized and kept, the files, then (with --prompts) the exact prompts. */
function renderPlan(model: string, plan: CompactionPlan, prompts: string[] | undefined): string[] {
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
	];
	for (const part of plan.parts) {
		lines.push(
			`${`${part.part}:`.padEnd(19)}${part.messageCount} message(s), ~${part.tokens} tokens, seq ${part.fromSeq} to ${part.toSeq - 1} (${part.kind} prompt)`,
		);
	}
	if (!prompts) {
		lines.push("", "(add --prompts to print the full prompts)");
		return lines;
	}
	lines.push("", "=== system prompt ===", plan.systemPrompt);
	for (const [i, part] of plan.parts.entries()) {
		lines.push("", `=== prompt: ${part.part} (${part.kind}) ===`, prompts[i] as string);
	}
	return lines;
}
