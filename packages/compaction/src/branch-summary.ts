import {
	type ContextMessage,
	DEFAULT_COMPACTION_SETTINGS,
	estimateTextTokens,
	type RecordInput,
	type StoredRecord,
} from "@agent/session-format/reading";
import { summaryMaxTokens } from "./compact.js";
import { invalidArgument } from "./errors.js";
import {
	appendFileOperations,
	extractFileOperations,
	type FileOperationOptions,
	mergeFileOperations,
} from "./file-operations.js";
import { SUMMARIZATION_SYSTEM_PROMPT } from "./prompts.js";
import { branchSummaryFilesOf, contextMessagesOf } from "./region.js";
import { type SerializeOptions, serializeConversation, serializeMessage } from "./serialize.js";
import { runSummaryJob } from "./summarize-chunks.js";
import type { SummarizerCall } from "./summarizer.js";
import { renderSummaryPrompt } from "./summary-prompts.js";

/** The branch_summary record summarizeBranch() returns, for the caller to append at the new leaf. */
export type BranchSummaryRecordInput = Extract<RecordInput, { recordType: "branch_summary" }>;

/**
 * The records of `oldPath` that `newPath` does not share: the branch being left when the leaf
 * moves from the end of `oldPath` to the end of `newPath` (both root → leaf).
 */
export function abandonedBranch(oldPath: readonly StoredRecord[], newPath: readonly StoredRecord[]): StoredRecord[] {
	const shared = new Set(newPath.map((record) => record.seq));
	let i = 0;
	while (i < oldPath.length && shared.has((oldPath[i] as StoredRecord).seq)) i++;
	return oldPath.slice(i);
}

export interface PrepareBranchSummaryOptions {
	/** The leaf of the branch left; default: the seq of the last entry. */
	fromSeq?: number;
	customInstructions?: string;
	fileOperations?: FileOperationOptions;
	serialize?: SerializeOptions;
}

/** What summarizeBranch() will send, computed without side effects. */
export interface BranchSummaryPlan {
	fromSeq: number;
	messages: ContextMessage[];
	readFiles: string[];
	modifiedFiles: string[];
	systemPrompt: string;
	/** The exact user message when the branch fits the summarizer's window in one call. */
	userPrompt: string;
	estimatedTokens: number;
	customInstructions?: string;
	serialize: SerializeOptions;
}

/** Plans the summary of a branch's records (see {@link abandonedBranch}); undefined when they hold no message. */
export function prepareBranchSummary(
	entries: readonly StoredRecord[],
	options: PrepareBranchSummaryOptions = {},
): BranchSummaryPlan | undefined {
	const messages = contextMessagesOf(entries, 0, entries.length);
	if (messages.length === 0) return undefined;
	const fromSeq = options.fromSeq ?? (entries[entries.length - 1] as StoredRecord).seq;
	const files = mergeFileOperations(
		...branchSummaryFilesOf(entries, 0, entries.length),
		extractFileOperations(messages, options.fileOperations),
	);
	const serialize = options.serialize ?? {};
	const userPrompt = renderSummaryPrompt(
		"branch",
		serializeConversation(messages, serialize),
		undefined,
		options.customInstructions,
	);
	const plan: BranchSummaryPlan = {
		fromSeq,
		messages,
		readFiles: files.readFiles,
		modifiedFiles: files.modifiedFiles,
		systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
		userPrompt,
		estimatedTokens: estimateTextTokens(SUMMARIZATION_SYSTEM_PROMPT) + estimateTextTokens(userPrompt),
		serialize,
	};
	if (options.customInstructions !== undefined) plan.customInstructions = options.customInstructions;
	return plan;
}

export interface SummarizeBranchOptions extends Omit<SummarizerCall, "maxTokens">, PrepareBranchSummaryOptions {
	/** The summarizer's own context window; a bigger branch is summarized in chunks. Default: the model's. */
	summarizerContextWindow?: number;
	/** The most tokens the summary may have. Default as for compaction. */
	maxTokens?: number;
	/** The reserve the default maxTokens derives from. Default: the spec's 16384. */
	reserveTokens?: number;
}

/**
 * Summarizes a branch the user left (as pi does when the leaf moves), for a `branch_summary`
 * record the caller appends at the new leaf. Undefined when the branch holds no message.
 * Fails like compact(): COMPACTION_FAILED or ABORTED, and nothing is to be appended.
 */
export async function summarizeBranch(
	entries: readonly StoredRecord[],
	options: SummarizeBranchOptions,
): Promise<BranchSummaryRecordInput | undefined> {
	if (!options?.model) throw invalidArgument("summarizeBranch() needs options.model, the pi-ai Model that summarizes");
	const plan = prepareBranchSummary(entries, options);
	if (!plan) return undefined;
	const configured = options.summarizerContextWindow ?? options.model.contextWindow;
	const window = configured > 0 && Number.isFinite(configured) ? configured : Number.POSITIVE_INFINITY;
	const reserveTokens = options.reserveTokens ?? DEFAULT_COMPACTION_SETTINGS.reserveTokens;
	const maxTokens =
		options.maxTokens ??
		summaryMaxTokens({ settings: { ...DEFAULT_COMPACTION_SETTINGS, reserveTokens } }, options, window);
	const job: Parameters<typeof runSummaryJob>[0] = {
		kind: "branch",
		pieces: plan.messages.map((message) => serializeMessage(message, plan.serialize)).filter((s) => s.length > 0),
		requiredSections: [],
	};
	if (plan.customInstructions !== undefined) job.customInstructions = plan.customInstructions;
	const { summary } = await runSummaryJob(job, { ...options, maxTokens }, plan.systemPrompt, window);
	const record: BranchSummaryRecordInput = {
		recordType: "branch_summary",
		fromSeq: plan.fromSeq,
		summary: appendFileOperations(summary, plan),
	};
	if (plan.readFiles.length > 0) record.readFiles = [...plan.readFiles];
	if (plan.modifiedFiles.length > 0) record.modifiedFiles = [...plan.modifiedFiles];
	return record;
}
