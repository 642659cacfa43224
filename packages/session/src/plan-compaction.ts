import {
	type ChunkEstimate,
	type CompactionPlan,
	compactionReduces,
	effectiveKeepRecentTokens,
	estimateChunks,
	oversizedBlockTokens,
	prepareCompaction,
	prepareCompactionFrom,
	summaryMaxTokens,
	truncateOversizedBlocks,
} from "@agent/compaction";
import type { CompactionSettings, SessionStore } from "@agent/session-format/reading";
import { linearLogSource, NotLinear } from "./log-path-source.js";
import type { ResolvedModel } from "./model-names.js";

export interface PlanCompactionOptions {
	/** The summarizer: "provider/model-id" or "demo"; default: compaction_model, else the session's model. */
	model?: string;
	keepRecentTokens?: number;
	customInstructions?: string;
	/** Also work out how many summarizer calls the plan takes (reads the material once more). */
	estimateChunks?: boolean;
}

export interface CompactionPreview {
	/** The summarizer the compaction uses. */
	model: string;
	/** What compaction would do; undefined when there is nothing to compact. */
	plan: CompactionPlan | undefined;
	/** Estimated tokens of the session's context now. */
	contextTokens: number;
	/**
	 * The recent tokens kept: `configured` is keep_recent_tokens, `effective` what the window
	 * allows ((window − reserve) / 2); `capped` says so in words when they differ.
	 */
	keepRecentTokens: { configured: number; effective: number; capped?: string };
	/**
	 * Whether the plan makes the context smaller (kept tokens plus the longest summary under the
	 * context now); a compaction that cannot is skipped, and `reason` says why. Absent without a plan.
	 */
	reduction?: { reduces: boolean; tokensAfter: number; reason?: string };
	/** The summarizer calls the plan takes, when asked for (`estimateChunks`) and there is a plan. */
	chunks?: ChunkEstimate;
}

/**
 * Plans a compaction of a session as it is now, writing nothing: the one place that turns a
 * session, settings and a summarizer into a plan, shared by `compact()` and its dry run.
 *
 * A session never compacted whose log is one straight line (the one that grows without bound:
 * its whole log is its context) is planned from its log in one streamed read, keeping a few
 * numbers per record, and its plan reads what it summarizes from the log again, chunk by chunk,
 * when it is sent: memory does not follow the session's size. A session compacted before is
 * planned from its resumed path, which a backward read finds without touching the history its
 * compactions summarized (and which is in memory); so is a branched one.
 */
export async function previewCompaction(
	store: SessionStore,
	sessionId: string,
	summarizer: ResolvedModel,
	settings: CompactionSettings,
	options: { contextWindow?: number; customInstructions?: string; estimateChunks?: boolean } = {},
): Promise<CompactionPreview> {
	const preview = await planOf(store, sessionId, summarizer, settings, options);
	const plan = preview.plan;
	if (!plan) return preview;
	const window = summarizer.model.contextWindow > 0 ? summarizer.model.contextWindow : Number.POSITIVE_INFINITY;
	preview.reduction = compactionReduces(plan, summaryMaxTokens(plan, summarizer, window));
	if (options.estimateChunks) preview.chunks = await estimateChunks(plan, summarizer);
	return preview;
}

async function planOf(
	store: SessionStore,
	sessionId: string,
	summarizer: ResolvedModel,
	settings: CompactionSettings,
	options: { contextWindow?: number; customInstructions?: string },
): Promise<CompactionPreview> {
	const metadata = await store.metadata(sessionId);
	const systemPrompt = metadata.systemPromptOverride;
	const contextWindow = options.contextWindow ?? summarizer.model.contextWindow;
	const prepareOptions = {
		contextWindow,
		...(systemPrompt ? { systemPrompt } : {}),
		...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
	};
	const effective = effectiveKeepRecentTokens(settings, contextWindow);
	const keepRecentTokens: CompactionPreview["keepRecentTokens"] = { configured: settings.keepRecentTokens, effective };
	if (effective < settings.keepRecentTokens) {
		keepRecentTokens.capped = `keep_recent_tokens ${settings.keepRecentTokens} is more than a ${contextWindow}-token window allows with reserve_tokens ${settings.reserveTokens}; ${effective} recent tokens ((window − reserve) / 2) are kept instead. Lower keep_recent_tokens or reserve_tokens in config.yaml to choose yourself`;
	}
	if (!metadata.compactionCount) {
		try {
			const plan = await prepareCompactionFrom(linearLogSource(store, sessionId), settings, prepareOptions);
			if (plan) return { model: summarizer.name, plan, contextTokens: plan.contextTokens, keepRecentTokens };
		} catch (error) {
			if (!(error instanceof NotLinear)) throw error;
		}
	}
	const opened = await store.open(sessionId);
	const plan = prepareCompaction(opened.path, settings, prepareOptions);
	// Measured as the model gets it: oversized blocks cut.
	const cut = truncateOversizedBlocks(
		opened.context.messages,
		oversizedBlockTokens(contextWindow, settings.reserveTokens),
	).tokens;
	return { model: summarizer.name, plan, contextTokens: opened.context.estimatedTokens - cut, keepRecentTokens };
}
