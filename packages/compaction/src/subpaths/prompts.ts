// @agent/compaction/prompts: what the summarizer is sent, for a summarizer of one's own: the
// spec's prompts verbatim (§7.5.4), the user message built from them, the flat conversation text
// (§7.5.5) and the check of the answer's sections.
export {
	BRANCH_SUMMARY_PROMPT,
	BRANCH_SUMMARY_UPDATE_PROMPT,
	SUMMARIZATION_PROMPT,
	SUMMARIZATION_SYSTEM_PROMPT,
	SUMMARY_FORMAT,
	TURN_PREFIX_PROMPT,
	TURN_PREFIX_UPDATE_PROMPT,
	UPDATE_SUMMARIZATION_PROMPT,
} from "../prompts.js";
export { missingSummarySections, REQUIRED_SUMMARY_SECTIONS } from "../sections.js";
export {
	DEFAULT_MAX_TOOL_RESULT_CHARS,
	type SerializableMessage,
	type SerializeOptions,
	serializeConversation,
} from "../serialize.js";
export { renderSummaryPrompt, type SummaryKind } from "../summary-prompts.js";
