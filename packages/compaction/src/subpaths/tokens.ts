// @agent/compaction/tokens: the measures behind estimateContextTokens: the estimate with where it
// came from (the provider's usage or chars/4), and the per-message and per-record estimates.
export {
	type ContextTokenEstimate,
	type EstimateContextOptions,
	estimateContextUsage,
	estimateMessageTokens,
	estimateRecordTokens,
	usageTokens,
} from "../tokens.js";
