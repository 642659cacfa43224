import type { CompactOptions } from "@agent/compaction";
import {
	type CompactionSettings,
	DEFAULT_COMPACTION_SETTINGS,
	type RecordInput,
	type SessionStore,
} from "@agent/session-format/reading";
import { invalidArgument } from "./errors.js";

/**
 * Our own summarizing compaction (`@agent/compaction`, spec §7.5), for any model pi-ai can call:
 * a structured summary of the older history, recent turns kept as they are. The SDK sees the
 * summary as the first item of the history.
 */
export interface SummarizingCompaction extends Omit<CompactOptions, "trigger" | "source" | "onProgress"> {
	/** When to compact and how much recent history to keep; default: the store's defaults. */
	settings?: Partial<CompactionSettings>;
	/** The context window of the agent's model, in tokens; default: the summarizer model's. */
	contextWindow?: number;
}

/**
 * The compaction record for the session as it is, or undefined when there is nothing to compact
 * (or, unless forced, no need yet). Runs under the caller's lease: the plan and the append see
 * the same log.
 */
export async function summarizingCompaction(
	store: SessionStore,
	sessionId: string,
	options: SummarizingCompaction,
	force: boolean,
): Promise<RecordInput | undefined> {
	let compaction: typeof import("@agent/compaction");
	try {
		compaction = await import("@agent/compaction");
	} catch (error) {
		throw invalidArgument(
			"summarizing compaction needs @agent/compaction (and @mariozechner/pi-ai): npm install @agent/compaction @mariozechner/pi-ai",
			error,
		);
	}
	const { settings: given, contextWindow: window, ...call } = options;
	const settings = { ...DEFAULT_COMPACTION_SETTINGS, ...given };
	const contextWindow = window ?? call.model.contextWindow;
	const opened = await store.open(sessionId);
	const systemPrompt = opened.metadata.systemPromptOverride;
	const plan = compaction.prepareCompaction(opened.path, settings, {
		contextWindow,
		...(systemPrompt ? { systemPrompt } : {}),
		...(call.customInstructions ? { customInstructions: call.customInstructions } : {}),
	});
	if (!plan) return undefined;
	if (!force && !compaction.shouldCompact(plan.contextTokens, contextWindow, settings)) return undefined;
	return compaction.compact(plan, { ...call, trigger: force ? "manual" : "threshold" });
}
