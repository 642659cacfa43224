import {
	branchSummaryText,
	buildContextFromPath,
	type CompactionSettings,
	type ContentBlock,
	type ContextMessage,
	estimateContentTokens,
	estimateTextTokens,
	type StoredRecord,
	type Usage,
} from "@agent/session-format/reading";

/** Estimated tokens of one message (chars/4 per block, images at a fixed estimate). */
export function estimateMessageTokens(message: { readonly content: readonly ContentBlock[] }): number {
	return estimateContentTokens(message.content);
}

/**
 * Estimated tokens a record puts into the context when it is kept: messages, custom messages
 * and branch summaries; 0 for every other record type (they are never sent to the LLM).
 */
export function estimateRecordTokens(record: StoredRecord): number {
	switch (record.recordType) {
		case "message":
		case "custom_message":
			return estimateContentTokens(record.content);
		case "branch_summary":
			return estimateTextTokens(branchSummaryText(record.summary));
		default:
			return 0;
	}
}

/** The context size a provider reported with an assistant message: its whole prompt plus its output. */
export function usageTokens(usage: Usage): number {
	const sum = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
	return usage.totalTokens > 0 ? Math.max(usage.totalTokens, sum) : sum;
}

export interface ContextTokenEstimate {
	/** The best estimate of the context's size. */
	tokens: number;
	/** "usage": reported usage plus estimates of what follows; "estimate": chars/4 only. */
	source: "usage" | "estimate";
	/** The reported usage that was used (0 with source "estimate"). */
	usageTokens: number;
	/** Estimated tokens of the messages after the one whose usage was used (all of them with "estimate"). */
	trailingTokens: number;
	/** The seq of the assistant message whose usage was used. */
	usageSeq?: number;
}

export interface EstimateContextOptions {
	/** Counted only when no usage can be used (reported usage already includes it). */
	systemPrompt?: string;
}

/**
 * The size of a context: the usage reported by the last assistant message that came AFTER the
 * latest compaction, plus chars/4 estimates of the messages after it. Usage reported before the
 * latest compaction (by messages the compaction kept) measured the old, larger context and is
 * never used: trusting it makes a fresh compaction trigger the next one, in a loop. Without
 * usable usage, every message is estimated.
 *
 * Takes a path of records (root → leaf, or the suffix a resume reads) or built context messages.
 */
export function estimateContextUsage(
	input: readonly StoredRecord[] | readonly ContextMessage[],
	options: EstimateContextOptions = {},
): ContextTokenEstimate {
	const messages = isRecordList(input) ? buildContextFromPath(input).messages : (input as readonly ContextMessage[]);
	const usageIndex = lastTrustedUsageIndex(messages);
	if (usageIndex < 0) {
		let tokens = options.systemPrompt ? estimateTextTokens(options.systemPrompt) : 0;
		for (const message of messages) tokens += estimateMessageTokens(message);
		return { tokens, source: "estimate", usageTokens: 0, trailingTokens: tokens };
	}
	const withUsage = messages[usageIndex] as ContextMessage & { usage: Usage };
	const reported = usageTokens(withUsage.usage);
	let trailing = 0;
	for (let i = usageIndex + 1; i < messages.length; i++)
		trailing += estimateMessageTokens(messages[i] as ContextMessage);
	const estimate: ContextTokenEstimate = {
		tokens: reported + trailing,
		source: "usage",
		usageTokens: reported,
		trailingTokens: trailing,
	};
	if (withUsage.seq !== undefined) estimate.usageSeq = withUsage.seq;
	return estimate;
}

/** `estimateContextUsage` (`@agent/compaction/tokens`), as a number. */
export function estimateContextTokens(
	input: readonly StoredRecord[] | readonly ContextMessage[],
	options: EstimateContextOptions = {},
): number {
	return estimateContextUsage(input, options).tokens;
}

/** Spec §7.5.2: compact when `contextTokens > contextWindow - reserveTokens` (and compaction is enabled). */
export function shouldCompact(
	contextTokens: number,
	contextWindow: number,
	settings: Pick<CompactionSettings, "enabled" | "reserveTokens">,
): boolean {
	if (!settings.enabled) return false;
	return contextTokens > contextWindow - settings.reserveTokens;
}

/** The index of the last assistant message whose usage may be trusted, or -1. */
function lastTrustedUsageIndex(messages: readonly ContextMessage[]): number {
	let summaryIndex = -1;
	for (let i = messages.length - 1; i >= 0; i--) {
		if ((messages[i] as ContextMessage).origin === "compaction_summary") {
			summaryIndex = i;
			break;
		}
	}
	const compactionSeq = summaryIndex >= 0 ? (messages[summaryIndex] as ContextMessage).seq : undefined;
	for (let i = messages.length - 1; i > summaryIndex; i--) {
		const message = messages[i] as ContextMessage;
		if (message.role !== "assistant" || !message.usage) continue;
		// Kept messages sit after the summary in the context but were written before the
		// compaction: their usage measured the context before it.
		if (compactionSeq !== undefined && message.seq !== undefined && message.seq < compactionSeq) continue;
		if (message.stopReason === "error" || message.stopReason === "aborted") continue;
		if (usageTokens(message.usage) <= 0) continue;
		return i;
	}
	return -1;
}

function isRecordList(input: readonly StoredRecord[] | readonly ContextMessage[]): input is readonly StoredRecord[] {
	const first = input[0];
	return first !== undefined && "recordType" in first;
}
