/**
 * @agent/ai-sdk/compaction: compacts a chat with an AI SDK model as the summarizer, through
 * @agent/compaction (an optional peer dependency: install it to use this entry point).
 */
import { compact, prepareCompaction, shouldCompact } from "@agent/compaction";
import {
	type CompactionRecord,
	type CompactionSettings,
	DEFAULT_COMPACTION_SETTINGS,
	type SessionStore,
} from "@agent/session-format/reading";
import type { LanguageModel } from "ai";
import { completeWith, summarizerModel } from "./ai-summarizer.js";
import { invalidArgument } from "./errors.js";
import { checkChatId } from "./validate.js";

export interface CompactChatOptions {
	/** The model that writes the summary: any AI SDK model (the chat's own will do). */
	model: LanguageModel;
	/** The context window of the model the chat talks to, in tokens. */
	contextWindow: number;
	/** reserveTokens (room for the reply) and keepRecentTokens (recent context kept as it is); default the spec's 16 384 and 20 000. */
	settings?: Partial<Omit<CompactionSettings, "enabled">>;
	/** Compact now, even when the context still fits (contextWindow − reserveTokens). */
	force?: boolean;
	/** The summarizer's own window, when it is not contextWindow; what exceeds it is summarized in chunks. */
	summarizerContextWindow?: number;
	/** The most tokens the summary may have; default 80% of reserveTokens. */
	maxTokens?: number;
	signal?: AbortSignal;
}

/**
 * Compacts a chat when its context no longer fits (or at once with `force`): the older messages
 * are summarized by `model` and a compaction record is appended, after which `modelMessages`
 * gives the summary and the recent messages. The summary is written without holding the chat's
 * lease, so saves go on meanwhile; it is appended only if the chat's path still holds what was
 * summarized. Resolves with the record, or undefined when nothing was compacted. `loadChat` is
 * unchanged: the log keeps every message.
 */
export async function compactChat(
	chats: { readonly store: SessionStore },
	chatId: string,
	options: CompactChatOptions,
): Promise<CompactionRecord | undefined> {
	checkChatId(chatId, "compactChat");
	const { model, contextWindow } = options ?? {};
	if (model === undefined || model === null)
		throw invalidArgument("compactChat needs options.model: the AI SDK model that summarizes");
	if (!Number.isFinite(contextWindow) || contextWindow <= 0) {
		throw invalidArgument(
			`compactChat needs options.contextWindow: the chat model's window in tokens (e.g. 128000), got ${contextWindow}`,
		);
	}
	const settings: CompactionSettings = { ...DEFAULT_COMPACTION_SETTINGS, ...options.settings, enabled: true };
	const { store } = chats;
	const opened = await store.open(chatId);
	if (!options.force && !shouldCompact(opened.context.estimatedTokens, contextWindow, settings)) return undefined;
	const plan = prepareCompaction(opened.path, settings, { contextWindow });
	if (!plan) return undefined;
	const window = options.summarizerContextWindow ?? contextWindow;
	const record = await compact(plan, {
		model: summarizerModel(model, window, options.maxTokens ?? settings.reserveTokens),
		complete: completeWith(model),
		trigger: options.force ? "manual" : "threshold",
		...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
		...(options.signal === undefined ? {} : { signal: options.signal }),
	});
	const plannedLeaf = opened.context.leafSeq;
	const lease = await store.lease(chatId);
	try {
		// The chat may have gone on meanwhile (fine: the new messages are kept) or moved to another
		// branch (then the summary is not of its path, and nothing is written).
		const now = await store.open(chatId);
		const onPath = new Set(now.path.map((entry) => entry.seq));
		if (!onPath.has(plan.firstKeptSeq) || (plannedLeaf !== null && !onPath.has(plannedLeaf))) return undefined;
		const { records } = await lease.append([record]);
		return records[0] as CompactionRecord;
	} finally {
		await lease.release();
	}
}
