export {
	abandonedBranch,
	type BranchSummaryPlan,
	type BranchSummaryRecordInput,
	type PrepareBranchSummaryOptions,
	prepareBranchSummary,
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
export { type CutPoint, type CutPointRange, findCutPoint, validCutPoints } from "./cut-point.js";
export {
	appendFileOperations,
	DEFAULT_FILE_TOOLS,
	DEFAULT_PATH_ARGUMENTS,
	extractFileOperations,
	type FileAccess,
	type FileOperationMessage,
	type FileOperationOptions,
	type FileOperations,
	type FileToolMap,
	formatFileOperations,
	mergeFileOperations,
	stripFileOperations,
} from "./file-operations.js";
export {
	cappedRecordTokens,
	type OversizedTruncation,
	oversizedBlockTokens,
	type TruncatableMessage,
	truncateMessage,
	truncateOversizedBlocks,
	truncateOversizedText,
} from "./oversized.js";
export { partPieces, renderPartPrompt } from "./part-material.js";
export { arraySource, type PathSource, recordsBetween } from "./path-source.js";
export {
	type CompactionPlan,
	effectiveKeepRecentTokens,
	type PrepareCompactionOptions,
	planSource,
	prepareCompaction,
	prepareCompactionFrom,
	type SummaryPart,
} from "./prepare.js";
export {
	BRANCH_SUMMARY_PROMPT,
	BRANCH_SUMMARY_UPDATE_PROMPT,
	SUMMARIZATION_PROMPT,
	SUMMARIZATION_SYSTEM_PROMPT,
	SUMMARY_FORMAT,
	TURN_PREFIX_HEADING,
	TURN_PREFIX_PROMPT,
	TURN_PREFIX_UPDATE_PROMPT,
	UPDATE_SUMMARIZATION_PROMPT,
} from "./prompts.js";
export {
	DEFAULT_PRUNE_MINIMUM_TOKENS,
	DEFAULT_PRUNE_PROTECT_TOKENS,
	type PruneOptions,
	type PruneResult,
	prunedOutputPlaceholder,
	pruneToolOutputs,
} from "./prune.js";
export { type CompactionRegion, contextMessagesOf, findCompactionRegion } from "./region.js";
export { missingSummarySections, REQUIRED_SUMMARY_SECTIONS } from "./sections.js";
export {
	DEFAULT_MAX_TOOL_RESULT_CHARS,
	formatToolCall,
	type SerializableMessage,
	type SerializeOptions,
	serializeConversation,
	serializeMessage,
	truncate,
} from "./serialize.js";
export { type JobResult, runSummaryJob, type SummaryJob, takeChunk } from "./summarize-chunks.js";
export {
	answerText,
	backoffDelay,
	type CompleteFn,
	type RetryOptions,
	requestSummary,
	type SummarizerCall,
	SummarizerOverflow,
} from "./summarizer.js";
export { renderSummaryPrompt, type SummaryKind } from "./summary-prompts.js";
export {
	type ContextTokenEstimate,
	type EstimateContextOptions,
	estimateContextTokens,
	estimateContextUsage,
	estimateMessageTokens,
	estimateRecordTokens,
	shouldCompact,
	usageTokens,
} from "./tokens.js";
