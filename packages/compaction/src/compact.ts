import {
	type CompactionTrigger,
	compactionSummaryText,
	estimateTextTokens,
	type RecordInput,
} from "@agent/session-format/reading";
import { invalidArgument } from "./errors.js";
import { appendFileOperations } from "./file-operations.js";
import { partPieces, sourceFor } from "./part-material.js";
import type { PathSource } from "./path-source.js";
import type { CompactionPlan, SummaryPart } from "./prepare.js";
import { TURN_PREFIX_HEADING } from "./prompts.js";
import { REQUIRED_SUMMARY_SECTIONS } from "./sections.js";
import { runSummaryJob } from "./summarize-chunks.js";
import type { SummarizerCall } from "./summarizer.js";

/** The compaction record compact() returns, for the caller to append. */
export type CompactionRecordInput = Extract<RecordInput, { recordType: "compaction" }>;

export interface CompactOptions extends Omit<SummarizerCall, "maxTokens"> {
	/** Extra instructions for the summarizer; overrides the plan's. */
	customInstructions?: string;
	/** Why compaction runs; recorded on the record. Default "manual". */
	trigger?: CompactionTrigger;
	/** The summarizer's own context window; material beyond it is summarized in chunks. Default: the model's. */
	summarizerContextWindow?: number;
	/** The most tokens a summary may have. Default: 80% of reserveTokens, at most the model's maxTokens and a quarter of its window. */
	maxTokens?: number;
	/** Where the plan's records are read from; default: the path or source the plan was prepared from. */
	source?: PathSource;
	/** Called after every summarizer call that succeeded: a long compaction goes in many chunks. */
	onProgress?: (progress: CompactionProgress) => void;
}

/** How far a compaction has come. */
export interface CompactionProgress {
	/** The part being summarized (0-based) and how many parts there are. */
	partIndex: number;
	parts: number;
	part: SummaryPart["part"];
	/** Summarizer calls made for this part so far (one per chunk). */
	chunks: number;
	/** Messages of this part summarized so far, and in all (messages with nothing to show count when the part ends). */
	messagesDone: number;
	messagesTotal: number;
}

/**
 * Makes the summary a plan calls for and returns the compaction record; writes nothing. Fails
 * with an AgentSessionError (COMPACTION_FAILED, or ABORTED when the signal fires) and then
 * nothing must be appended.
 */
export async function compact(plan: CompactionPlan, options: CompactOptions): Promise<CompactionRecordInput> {
	if (!options?.model) throw invalidArgument("compact() needs options.model, the pi-ai Model that summarizes");
	const window = summarizerWindow(options);
	const call: SummarizerCall = { ...options, maxTokens: options.maxTokens ?? summaryMaxTokens(plan, options, window) };
	const customInstructions = options.customInstructions ?? plan.customInstructions;

	const source = sourceFor(plan, options.source);
	let main = plan.previousSummary ?? "";
	let turnPrefix: string | undefined;
	for (const [partIndex, part] of plan.parts.entries()) {
		const progress = (chunks: number, messagesDone: number) =>
			options.onProgress?.({
				partIndex,
				parts: plan.parts.length,
				part: part.part,
				chunks,
				messagesDone,
				messagesTotal: part.messageCount,
			});
		const result = await runPart(plan, part, source, call, window, customInstructions, progress);
		if (part.part === "summary") main = result;
		else turnPrefix = result;
	}
	const merged = turnPrefix === undefined ? main : `${main.trimEnd()}\n\n${TURN_PREFIX_HEADING}\n\n${turnPrefix}`;
	const summary = appendFileOperations(merged, plan);
	return {
		recordType: "compaction",
		firstKeptSeq: plan.firstKeptSeq,
		summary,
		tokensBefore: plan.tokensBefore,
		tokensAfter: estimateTextTokens(compactionSummaryText(summary)) + plan.tokensKept,
		readFiles: [...plan.readFiles],
		modifiedFiles: [...plan.modifiedFiles],
		trigger: options.trigger ?? "manual",
		// Given, so that appending the record does not read the path back to work them out.
		pathSettings: structuredClone(plan.pathSettings),
	};
}

async function runPart(
	plan: CompactionPlan,
	part: SummaryPart,
	source: PathSource,
	call: SummarizerCall,
	window: number,
	customInstructions: string | undefined,
	progress: (chunks: number, messagesDone: number) => void,
): Promise<string> {
	const job: Parameters<typeof runSummaryJob>[0] = {
		kind: part.kind,
		pieces: partPieces(source, part, plan.serialize),
		requiredSections: part.part === "summary" ? REQUIRED_SUMMARY_SECTIONS : [],
		onChunk: ({ chunks, pieces }) => progress(chunks, Math.min(pieces, part.messageCount)),
	};
	if (part.previousSummary !== undefined) job.previousSummary = part.previousSummary;
	if (customInstructions !== undefined) job.customInstructions = customInstructions;
	const result = await runSummaryJob(job, call, plan.systemPrompt, window);
	progress(result.chunks, part.messageCount);
	return result.summary;
}

function summarizerWindow(options: CompactOptions): number {
	const window = options.summarizerContextWindow ?? options.model.contextWindow;
	return window !== undefined && Number.isFinite(window) && window > 0 ? window : Number.POSITIVE_INFINITY;
}

/** 80% of the reserve (the room a summary may take), within the model's output limit and a quarter of its window. */
export function summaryMaxTokens(
	plan: Pick<CompactionPlan, "settings">,
	options: Pick<CompactOptions, "model">,
	window: number,
): number {
	let max = Math.floor(plan.settings.reserveTokens * 0.8);
	if (options.model.maxTokens > 0) max = Math.min(max, options.model.maxTokens);
	if (Number.isFinite(window)) max = Math.min(max, Math.floor(window / 4));
	return Math.max(1, max);
}
