import {
	type CompactionSettings,
	type ContextMessage,
	DEFAULT_COMPACTION_SETTINGS,
	estimateTextTokens,
	type StoredRecord,
} from "@agent/session-format";
import { findCutPoint } from "./cut-point.js";
import {
	extractFileOperations,
	type FileOperationOptions,
	mergeFileOperations,
	stripFileOperations,
} from "./file-operations.js";
import { SUMMARIZATION_SYSTEM_PROMPT } from "./prompts.js";
import { branchSummaryFilesOf, contextMessagesOf, findCompactionRegion } from "./region.js";
import { type SerializeOptions, serializeConversation } from "./serialize.js";
import { renderSummaryPrompt, type SummaryKind } from "./summary-prompts.js";
import { estimateContextTokens, estimateMessageTokens } from "./tokens.js";

export interface PrepareCompactionOptions {
	/** Extra instructions for the summarizer (e.g. `/compact focus on the API design`). */
	customInstructions?: string;
	/** The context window of the session's model: caps keepRecentTokens at half of what is left after the reserve. */
	contextWindow?: number;
	/** The session's system prompt, counted in contextTokens when no reported usage can be used. */
	systemPrompt?: string;
	/** Which tools read and modify files. */
	fileOperations?: FileOperationOptions;
	/** How messages are serialized for the summarizer. */
	serialize?: SerializeOptions;
}

/** One part of the summary and the call that makes it (when its material fits one call). */
export interface SummaryPart {
	/** "summary": the structured summary (S7.14); "turn-prefix": the first part of a split turn. */
	part: "summary" | "turn-prefix";
	/** The instruction of the (first) call. */
	kind: SummaryKind;
	/** The messages this part summarizes, in order. */
	messages: ContextMessage[];
	/** The summary folded in with the update prompt (S7.17). */
	previousSummary?: string;
	/** The exact user message sent when the material fits the summarizer's window in one call. */
	userPrompt: string;
	/** chars/4 estimate of the system prompt plus the user message. */
	estimatedTokens: number;
}

/** Everything a compaction will do, computed without side effects (the CLI's `compact --dry-run` prints it). */
export interface CompactionPlan {
	/** The first record kept: the compaction's firstKeptSeq. */
	firstKeptSeq: number;
	/** Its index in the path the plan was made from. */
	firstKeptIndex: number;
	/** Estimated tokens of the context before compaction. */
	contextTokens: number;
	/** Estimated tokens of the messages summarized now: the record's tokensBefore (spec §7.5.3 step 5). */
	tokensBefore: number;
	/** Estimated tokens of the messages kept. */
	tokensKept: number;
	/** True when the cut falls inside a turn; its first part is summarized with the turn-prefix prompt. */
	isSplitTurn: boolean;
	/** With a split turn: the seq of the user message that started it. */
	turnStartSeq?: number;
	/** The latest compaction on the path, whose summary and files this one carries on. */
	previousCompactionSeq?: number;
	/** The previous summary without its file tags; the update prompt folds the new messages into it. */
	previousSummary?: string;
	/** Cumulative files read (S7.15), without those modified (S7.16). */
	readFiles: string[];
	/** Cumulative files written or edited (S7.15). */
	modifiedFiles: string[];
	/** The system prompt of every call (spec §7.5.4). */
	systemPrompt: string;
	/**
	 * The summaries to make, in order: the structured summary, then a split turn's first part.
	 * Without a "summary" part (a split turn with nothing new before it) the previous summary
	 * is carried over as it is and the turn-prefix summary is merged into it.
	 */
	parts: SummaryPart[];
	settings: CompactionSettings;
	customInstructions?: string;
	serialize: SerializeOptions;
}

/**
 * Plans a compaction of `path` (root → leaf, or the suffix a resume reads: from the latest
 * compaction's firstKeptSeq). Undefined when there is nothing to summarize: everything fits in
 * keepRecentTokens, or no valid cut point exists. `settings.enabled` is not consulted here; it
 * gates automatic compaction ({@link shouldCompact}), a manual one always runs.
 */
export function prepareCompaction(
	path: readonly StoredRecord[],
	settings: CompactionSettings = DEFAULT_COMPACTION_SETTINGS,
	options: PrepareCompactionOptions = {},
): CompactionPlan | undefined {
	const region = findCompactionRegion(path);
	const cut = findCutPoint(path, effectiveKeepRecentTokens(settings, options.contextWindow), region);
	if (!cut) return undefined;
	const summarizeEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.index;
	const history = contextMessagesOf(path, region.start, summarizeEnd);
	const turnPrefix = cut.isSplitTurn ? contextMessagesOf(path, cut.turnStartIndex, cut.index) : [];
	if (history.length === 0 && turnPrefix.length === 0) return undefined;

	const previous = region.previous;
	const previousSummary = previous ? stripFileOperations(previous.summary) : undefined;
	const files = mergeFileOperations(
		previous,
		...branchSummaryFilesOf(path, region.start, cut.index),
		extractFileOperations([...history, ...turnPrefix], options.fileOperations),
	);

	const serialize = options.serialize ?? {};
	const custom = options.customInstructions;
	const parts: SummaryPart[] = [];
	if (history.length > 0) {
		parts.push(
			summaryPart("summary", previousSummary ? "update" : "initial", history, previousSummary, custom, serialize),
		);
	}
	if (turnPrefix.length > 0) {
		// A split turn with nothing before it and no previous summary: its first part is the
		// whole history, and gets the structured summary.
		if (history.length === 0 && previousSummary === undefined) {
			parts.push(summaryPart("summary", "initial", turnPrefix, undefined, custom, serialize));
		} else {
			parts.push(summaryPart("turn-prefix", "turn-prefix", turnPrefix, undefined, custom, serialize));
		}
	}

	let tokensBefore = 0;
	for (const message of [...history, ...turnPrefix]) tokensBefore += estimateMessageTokens(message);
	const plan: CompactionPlan = {
		firstKeptSeq: cut.seq,
		firstKeptIndex: cut.index,
		contextTokens: estimateContextTokens(path, options.systemPrompt ? { systemPrompt: options.systemPrompt } : {}),
		tokensBefore,
		tokensKept: cut.keptTokens,
		isSplitTurn: cut.isSplitTurn,
		readFiles: files.readFiles,
		modifiedFiles: files.modifiedFiles,
		systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
		parts,
		settings: { ...settings },
		serialize,
	};
	if (cut.isSplitTurn) plan.turnStartSeq = (path[cut.turnStartIndex] as StoredRecord).seq;
	if (previous) plan.previousCompactionSeq = previous.seq;
	if (previousSummary !== undefined) plan.previousSummary = previousSummary;
	if (custom !== undefined) plan.customInstructions = custom;
	return plan;
}

/**
 * keepRecentTokens, capped (when the model's window is known) at half of the window left after
 * the reserve, so that what is kept always leaves room: a small-window model still compacts.
 */
export function effectiveKeepRecentTokens(settings: CompactionSettings, contextWindow?: number): number {
	if (contextWindow === undefined || !Number.isFinite(contextWindow) || contextWindow <= 0) {
		return settings.keepRecentTokens;
	}
	const cap = Math.max(0, Math.floor((contextWindow - settings.reserveTokens) / 2));
	return Math.min(settings.keepRecentTokens, cap);
}

function summaryPart(
	part: SummaryPart["part"],
	kind: SummaryKind,
	messages: ContextMessage[],
	previousSummary: string | undefined,
	customInstructions: string | undefined,
	serialize: SerializeOptions,
): SummaryPart {
	const userPrompt = renderSummaryPrompt(
		kind,
		serializeConversation(messages, serialize),
		previousSummary,
		customInstructions,
	);
	const result: SummaryPart = {
		part,
		kind,
		messages,
		userPrompt,
		estimatedTokens: estimateTextTokens(SUMMARIZATION_SYSTEM_PROMPT) + estimateTextTokens(userPrompt),
	};
	if (previousSummary !== undefined) result.previousSummary = previousSummary;
	return result;
}
