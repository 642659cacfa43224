/**
 * The keys of the record and metadata schemas, in the schemas' order, as plain lists: what the
 * hand checks (fast-record.ts, metadata-fast.ts) accept and the order they write keys in, without
 * loading zod. Not written from memory: fast-record.test.ts and metadata-fast.test.ts take each
 * list from the zod shape it mirrors and fail when the two differ.
 */

export const BASE_KEYS = ["recordType", "schemaVersion", "seq", "timestamp", "parentSeq", "session"] as const;
export const MESSAGE_KEYS = [
	...BASE_KEYS,
	"role",
	"content",
	"toolCallId",
	"toolName",
	"isError",
	"details",
	"api",
	"provider",
	"model",
	"usage",
	"stopReason",
	"errorMessage",
] as const;
export const COMPACTION_KEYS = [
	...BASE_KEYS,
	"firstKeptSeq",
	"summary",
	"tokensBefore",
	"tokensAfter",
	"readFiles",
	"modifiedFiles",
	"trigger",
	"pathSettings",
] as const;
export const MODEL_CHANGE_KEYS = [...BASE_KEYS, "provider", "modelId"] as const;
export const THINKING_LEVEL_KEYS = [...BASE_KEYS, "thinkingLevel"] as const;
export const SESSION_INFO_KEYS = [...BASE_KEYS, "name"] as const;
export const CUSTOM_KEYS = [...BASE_KEYS, "customType", "data"] as const;
export const TURN_KEYS = [
	...BASE_KEYS,
	"turnId",
	"outcome",
	"startedAt",
	"durationMs",
	"model",
	"usage",
	"error",
	"firstSeq",
	"lastSeq",
] as const;
export const TURN_ERROR_KEYS = ["code", "message"] as const;
export const PATH_SETTINGS_KEYS = ["model", "thinkingLevel"] as const;
export const PATH_MODEL_KEYS = ["provider", "modelId"] as const;
export const HEADER_KEYS = [
	"createdAt",
	"name",
	"model",
	"source",
	"cronJobId",
	"systemPromptOverride",
	"identityKey",
	"cwd",
	"createdBy",
	"importedFrom",
	"forkedFrom",
	"uptimeSeconds",
] as const;
export const IMPORTED_FROM_KEYS = ["format", "sourceId"] as const;
export const FORKED_FROM_KEYS = ["sessionId", "seq"] as const;
export const USAGE_KEYS = ["input", "output", "cacheRead", "cacheWrite", "totalTokens", "cost"] as const;
export const COST_KEYS = ["input", "output", "cacheRead", "cacheWrite", "total"] as const;
export const TEXT_KEYS = ["type", "text", "textSignature"] as const;
export const THINKING_KEYS = ["type", "thinking", "thinkingSignature", "redacted"] as const;
export const TOOL_CALL_KEYS = ["type", "id", "name", "arguments", "thoughtSignature"] as const;
export const IMAGE_KEYS = ["type", "data", "mimeType"] as const;

/** sessionMetadataSchema's keys. */
export const METADATA_KEYS: readonly string[] = [
	"id",
	"name",
	"createdAt",
	"lastMessageAt",
	"model",
	"messageCount",
	"source",
	"cronJobId",
	"systemPromptOverride",
	"metrics",
	"metadataVersion",
	"lastSeq",
	"logBytes",
	"leafSeq",
	"archivedAt",
	"forkedFrom",
	"identityKey",
	"uptimeSeconds",
	"thinkingLevel",
	"compactionCount",
	"importedFrom",
	"cwd",
	"createdBy",
	"firstMessage",
];
/** tokenTotalsSchema's keys. */
export const TOTALS_KEYS = ["input", "output", "cacheRead", "cacheWrite", "totalTokens", "cost", "turns"] as const;
/** sessionMetricsSchema's keys. */
export const METRICS_KEYS = [...TOTALS_KEYS, "byModel"] as const;
