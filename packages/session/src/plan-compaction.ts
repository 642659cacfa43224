import { type CompactionPlan, prepareCompaction } from "@agent/compaction";
import { resolveModel } from "./models.js";
import type { AgentSessions, CompactOptions } from "./runtime.js";

export type PlanCompactionOptions = Pick<CompactOptions, "model" | "keepRecentTokens" | "customInstructions">;

export interface CompactionPreview {
	/** The summarizer a manual compaction would use. */
	model: string;
	/** What compaction would do; undefined when there is nothing to compact. */
	plan: CompactionPlan | undefined;
	/** Estimated tokens of the session's context now. */
	contextTokens: number;
}

/**
 * What `sessions.compact(sessionId, options)` would do now, computed without side effects: the
 * same summarizer, settings, context window and system prompt, so the plan (firstKeptSeq,
 * tokensBefore, files, the exact prompts with the custom instructions) is the one a manual
 * compaction carries out. Writes nothing and takes no lease. For `compact --dry-run` and previews.
 */
export async function planCompaction(
	sessions: AgentSessions,
	sessionId: string,
	options: PlanCompactionOptions = {},
): Promise<CompactionPreview> {
	const metadata = await sessions.store.metadata(sessionId);
	const model = options.model ?? sessions.config.compactionModel ?? (metadata.model || sessions.defaultModel());
	const resolved = resolveModel(model);
	const settings = {
		...sessions.config.compaction,
		...(options.keepRecentTokens !== undefined ? { keepRecentTokens: options.keepRecentTokens } : {}),
	};
	const opened = await sessions.store.open(sessionId);
	const systemPrompt = opened.context.systemPrompt;
	const plan = prepareCompaction(opened.path, settings, {
		contextWindow: resolved.model.contextWindow,
		...(systemPrompt ? { systemPrompt } : {}),
		...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
	});
	return { model, plan, contextTokens: opened.context.estimatedTokens };
}
