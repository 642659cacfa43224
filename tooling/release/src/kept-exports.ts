/**
 * The exports of published entry points that nothing in the repository uses (no other package,
 * no test, no example in a README or docs/), kept on purpose: each group says why a user needs
 * them. test/exports.test.ts fails on an unused export listed nowhere here, and on an entry here
 * that is used (or gone) by now, so the list stays true.
 */
export interface Kept {
	/** The entry point: "@agent/x" or "@agent/x/sub". */
	entry: string;
	names: readonly string[];
	why: string;
}

export const KEPT: readonly Kept[] = [
	{
		entry: "@agent/compaction",
		names: ["DEFAULT_PRUNE_PROTECT_TOKENS"],
		why: "pruneToolOutputs' default protectTokens, beside DEFAULT_PRUNE_MINIMUM_TOKENS (which config.yaml's defaults use)",
	},
	{
		entry: "@agent/compaction/prompts",
		names: [
			"BRANCH_SUMMARY_PROMPT",
			"BRANCH_SUMMARY_UPDATE_PROMPT",
			"DEFAULT_MAX_TOOL_RESULT_CHARS",
			"REQUIRED_SUMMARY_SECTIONS",
			"SUMMARIZATION_PROMPT",
			"SUMMARIZATION_SYSTEM_PROMPT",
			"SUMMARY_FORMAT",
			"SerializableMessage",
			"SerializeOptions",
			"SummaryKind",
			"TURN_PREFIX_PROMPT",
			"TURN_PREFIX_UPDATE_PROMPT",
			"UPDATE_SUMMARIZATION_PROMPT",
			"missingSummarySections",
			"renderSummaryPrompt",
			"serializeConversation",
		],
		why: "the builder kit of a summarizer of one's own: the spec's prompts verbatim (§7.5.4), the flat conversation text (§7.5.5) and the section check (README, API in brief)",
	},
	{
		entry: "@agent/compaction/files",
		names: [
			"DEFAULT_FILE_TOOLS",
			"DEFAULT_PATH_ARGUMENTS",
			"FileAccess",
			"FileOperationMessage",
			"FileOperationOptions",
			"FileOperations",
			"FileToolMap",
			"appendFileOperations",
			"extractFileOperations",
			"formatFileOperations",
			"mergeFileOperations",
			"stripFileOperations",
		],
		why: "file-operation tracking (S7.15, S7.16): DEFAULT_FILE_TOOLS is what prepareCompaction's fileOperations.tools extends for other tool names (README)",
	},
	{
		entry: "@agent/compaction/cut-points",
		names: ["CutPoint", "CutPointRange", "findCutPoint", "validCutPoints"],
		why: "where a path may be cut (S7.13), for a planner of one's own; pi's findCutPoint, which users of pi look for (README)",
	},
	{
		entry: "@agent/compaction/tokens",
		names: [
			"ContextTokenEstimate",
			"EstimateContextOptions",
			"estimateContextUsage",
			"estimateMessageTokens",
			"estimateRecordTokens",
			"usageTokens",
		],
		why: "the measures behind estimateContextTokens, for a UI that shows sizes and where an estimate came from (README)",
	},
	{
		entry: "@agent/interop",
		names: [
			"CONVERTERS",
			"ConvertOptions",
			"ConvertedSession",
			"Converter",
			"OpenCodeSession",
			"SOURCE_FORMATS",
			"convertClaude",
			"convertCodex",
			"convertCopilot",
			"convertFern",
			"convertGemini",
			"convertOpenCode",
			"convertOpenCodeSession",
			"convertPi",
			"convertRfc0064",
			"convertSession",
			"detectFormat",
		],
		why: "the pure converters, one per format, for a program that converts without a store (README, API: Import)",
	},
	{
		entry: "@agent/interop",
		names: [
			"CLAUDE_CODE_VERSION",
			"CODEX_VERSION",
			"ChunkSink",
			"EXPORT_FORMATS",
			"claudeExportLines",
			"claudeSessionPath",
			"codexExportLines",
			"codexRolloutPath",
			"piExportLines",
			"recordsFrom",
			"writeSessionExport",
		],
		why: "export without the CLI: to a stream, from any record source, and where Claude Code and Codex look for the file (README, API: Export)",
	},
	{
		entry: "@agent/interop",
		names: [
			"IMPORT_BATCH",
			"LEAF_MARKER_TYPE",
			"OPAQUE_CUSTOM_TYPE",
			"PI_BASH_TYPE",
			"PI_HEADER_TYPE",
			"carriedContent",
		],
		why: "what an import writes (its batch size, the customTypes of the records it keeps from the source) and what an export carries to a target's API, for readers of imported logs (README)",
	},
	{
		entry: "@agent/ai-sdk",
		names: ["ACTIVE_STREAM_TYPE", "UIMessageData", "UI_MESSAGE_TYPE"],
		why: "the customTypes of the records it writes and their data, for readers of the log (the CLI, the page, export)",
	},
	{
		entry: "@agent/openai-agents",
		names: ["ITEMS_TYPE", "ItemsKind", "TRANSACTION_TYPE"],
		why: "the customTypes of its records (README)",
	},
	{
		entry: "@agent/pi-agent",
		names: ["AGENT_MESSAGE_TYPE"],
		why: "the customType of the pi messages it keeps verbatim, for readers of the log",
	},
	{
		entry: "@agent/markdown",
		names: ["MAX_HIGHLIGHT_CHARS", "MAX_MARKDOWN_CHARS", "highlightCode", "highlightedLanguages"],
		why: "the highlighter on its own, the languages it knows, and the sizes past which text is shown plain, for a page that renders code outside Markdown",
	},
	{
		entry: "agent-sessions",
		names: ["CliContext", "EXIT_FAILURE", "EXIT_OK", "EXIT_USAGE", "buildProgram", "main"],
		why: "the CLI as a library: main(argv, io) runs it in-process with its exit code; buildProgram and CliContext take a command of one's own (README, Adding a command)",
	},
	{
		entry: "agent-sessions-server",
		names: ["DEFAULT_HOST", "DEFAULT_PORT", "RunningServer", "ServerOptions", "startServer"],
		why: "the server as a library (README: startServer({ home, host, port }))",
	},
	{
		entry: "agent-sessions-server",
		names: [
			"AppOptions",
			"EVENTS_PROTOCOL",
			"EventSocketOptions",
			"EventSockets",
			"JobDescription",
			"JobRunReport",
			"JobScheduler",
			"RunningTurns",
			"SESSION_DELETED_CLOSE",
			"SLOW_READER_CLOSE",
			"SendBudget",
			"SendBudgetOptions",
			"attachEventSockets",
			"createApp",
		],
		why: "its parts for a host that serves them itself: the Hono app, the event sockets and their close codes, the job scheduler, the turns running in the process",
	},
	{
		entry: "agent-sessions-server",
		names: [
			"ErrorBody",
			"HttpError",
			"MIN_TOKEN_LENGTH",
			"TOKEN_ENV",
			"TOKEN_PROTOCOL_PREFIX",
			"checkToken",
			"isLoopbackHost",
			"resolveToken",
			"toHttpError",
		],
		why: "the API's error body and token rules, for a client or host that speaks them",
	},
];
