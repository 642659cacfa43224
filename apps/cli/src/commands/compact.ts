import { type ChunkEstimate, type CompactionPlan, renderPartPrompt } from "@agent/compaction";
import type { AgentSessions, CompactionPreview, PlanCompactionOptions } from "@agent/session";
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
				const preview = await sessions.planCompaction(id, { ...options, estimateChunks: true });
				const plan = preview.plan;
				const prompts = plan && flags.prompts ? await partPrompts(plan) : undefined;
				if (flags.json) {
					return ctx.out.json({
						model: preview.model,
						plan: plan ?? null,
						keepRecentTokens: preview.keepRecentTokens,
						chunks: preview.chunks ?? null,
						reduction: preview.reduction ?? null,
						...(prompts ? { prompts } : {}),
					});
				}
				if (preview.keepRecentTokens.capped) ctx.out.note(`Note: ${preview.keepRecentTokens.capped}.`);
				if (!plan) return nothingToCompact(ctx, preview.contextTokens, keepRecent(sessions, options));
				for (const line of renderPlan(preview, plan, prompts)) await ctx.out.line(line);
				return;
			}
			const record = await compactShowingProgress(ctx, sessions, id, options);
			if (flags.json) return ctx.out.json(record ?? null);
			if (!record) {
				const context = await sessions.modelContext(id);
				return nothingToCompact(ctx, context.estimatedTokens, keepRecent(sessions, options));
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

/**
 * Compacts, with a bar of the summarizer calls (chunk i of ~n) on stderr when stderr is a
 * terminal: the runtime estimates n first and reports each call (compaction.progress).
 */
async function compactShowingProgress(
	ctx: CliContext,
	sessions: AgentSessions,
	id: string,
	options: PlanCompactionOptions,
): Promise<Awaited<ReturnType<AgentSessions["compact"]>>> {
	const stderr = ctx.io.stderr as { isTTY?: boolean };
	if (stderr.isTTY !== true) return sessions.compact(id, options);
	// Loaded only here: a compaction on a terminal is the one case that draws a bar.
	const { startProgress } = await import("../io/progress.js");
	const progress = startProgress(ctx.io.stderr, "compact", 1);
	const unsubscribe = sessions.subscribe(
		(event) => {
			if (event.type !== "compaction.started" && event.type !== "compaction.progress") return;
			const total = Math.max(event.chunksEstimated ?? 1, event.type === "compaction.progress" ? event.chunks : 0, 1);
			const done = event.type === "compaction.progress" ? event.chunks : 0;
			progress.update(done, total, `chunk ${Math.min(done + 1, total)} of ~${total}`);
		},
		{ sessionId: id },
	);
	try {
		return await sessions.compact(id, { ...options, estimateChunks: true });
	} finally {
		unsubscribe();
		progress.stop();
	}
}

/** Every part's whole user prompt, as sent when its material fits the summarizer's window in one call. */
async function partPrompts(plan: CompactionPlan): Promise<string[]> {
	const prompts: string[] = [];
	for (const part of plan.parts) prompts.push(await renderPartPrompt(plan, part));
	return prompts;
}

/** "1 (the material fits one call)" or how many chunks it takes and why. */
function describeChunks(chunks: ChunkEstimate): string {
	const window = Number.isFinite(chunks.summarizerWindow)
		? `the summarizer's ${formatCount(chunks.summarizerWindow)}-token window`
		: "the summarizer";
	if (chunks.fitsInOneCall) {
		return `${chunks.chunks} (the material fits one call${chunks.parts.length > 1 ? " per part" : ""} of ${window})`;
	}
	const material = chunks.parts.reduce((sum, part) => sum + part.materialTokens, 0);
	return `~${chunks.chunks} (estimate): the material (~${formatCount(material)} tokens) does not fit one call of ${window}, so it is summarized in ~${chunks.chunks} chunks`;
}

/** The plan for people: what is summarized and kept, the files, then (with --prompts) the exact prompts. */
function renderPlan(preview: CompactionPreview, plan: CompactionPlan, prompts: string[] | undefined): string[] {
	const lines = [
		"Compaction plan (dry run: nothing was written)",
		`summarizer:        ${preview.model}`,
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
	if (preview.chunks) lines.push(`summarizer calls:  ${describeChunks(preview.chunks)}`);
	if (preview.reduction && !preview.reduction.reduces) {
		lines.push(`reduces:           no: ${preview.reduction.reason} (a threshold compaction skips it)`);
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
