// What a caller of compaction needs: the trigger, the plan, the summary, branch summaries and
// pruning, with the types their signatures name. Lower-level pieces are on subpaths:
// @agent/compaction/prompts, /files, /cut-points and /tokens.
export {
	abandonedBranch,
	type BranchSummaryRecordInput,
	type PrepareBranchSummaryOptions,
	type SummarizeBranchOptions,
	summarizeBranch,
} from "./branch-summary.js";
export { type ChunkEstimate, type ChunkEstimateOptions, compactionReduces, estimateChunks } from "./chunk-estimate.js";
export {
	type CompactionProgress,
	type CompactionRecordInput,
	type CompactOptions,
	compact,
	summaryMaxTokens,
} from "./compact.js";
export type { FileAccess, FileOperationOptions, FileToolMap } from "./file-operations.js";
export {
	type OversizedTruncation,
	oversizedBlockTokens,
	type TruncatableMessage,
	truncateOversizedBlocks,
} from "./oversized.js";
export { renderPartPrompt } from "./part-material.js";
export type { PathSource } from "./path-source.js";
export {
	type CompactionPlan,
	effectiveKeepRecentTokens,
	type PrepareCompactionOptions,
	prepareCompaction,
	prepareCompactionFrom,
	type SummaryPart,
} from "./prepare.js";
export {
	DEFAULT_PRUNE_MINIMUM_TOKENS,
	DEFAULT_PRUNE_PROTECT_TOKENS,
	type PruneOptions,
	type PruneResult,
	pruneToolOutputs,
} from "./prune.js";
export type { SerializeOptions } from "./serialize.js";
export type { CompleteFn, RetryOptions, SummarizerCall } from "./summarizer.js";
export type { SummaryKind } from "./summary-prompts.js";
export { type EstimateContextOptions, estimateContextTokens, shouldCompact } from "./tokens.js";
