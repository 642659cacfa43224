import { type CompactionPlan, prepareCompaction } from "@agent/compaction";
import type { CompactionSettings, SessionStore } from "@agent/session-format";
import type { ResolvedModel } from "./models.js";

export interface PlanCompactionOptions {
	/** The summarizer: "provider/model-id" or "demo"; default: compaction_model, else the session's model. */
	model?: string;
	keepRecentTokens?: number;
	customInstructions?: string;
}

export interface CompactionPreview {
	/** The summarizer the compaction uses. */
	model: string;
	/** What compaction would do; undefined when there is nothing to compact. */
	plan: CompactionPlan | undefined;
	/** Estimated tokens of the session's context now. */
	contextTokens: number;
}

/**
 * Plans a compaction of a session as it is now, writing nothing: the one place that turns a
 * session, settings and a summarizer into a plan, shared by `compact()` and its dry run.
 */
export async function previewCompaction(
	store: SessionStore,
	sessionId: string,
	summarizer: ResolvedModel,
	settings: CompactionSettings,
	options: { contextWindow?: number; customInstructions?: string } = {},
): Promise<CompactionPreview> {
	const opened = await store.open(sessionId);
	const systemPrompt = opened.context.systemPrompt;
	const plan = prepareCompaction(opened.path, settings, {
		contextWindow: options.contextWindow ?? summarizer.model.contextWindow,
		...(systemPrompt ? { systemPrompt } : {}),
		...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
	});
	return { model: summarizer.name, plan, contextTokens: opened.context.estimatedTokens };
}
