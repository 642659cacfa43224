/**
 * @agent/session-format/reading: everything of this package but what needs the zod schemas (the
 * schemas themselves, validating appends, parsing with a full check). A reader (a listing, a
 * resume, a tail, a search) imports from here, so that its process never loads zod: the records
 * and metadata.json files this library writes are checked by hand, and what that check does not
 * accept is decided by the schemas loaded on demand (loadSchemaChecks). Types are all here.
 */
export { appendViolation, type InvariantViolation } from "./append-invariants.js";
export {
	type CompactionConfig,
	type CompactionSettings,
	compactionSettingsOf,
	DEFAULT_COMPACTION_SETTINGS,
} from "./compaction-settings.js";
export type { ContentBlock, ImageBlock, TextBlock, ThinkingBlock, ToolCallBlock } from "./content.js";
export { contentText, textBlock, toolCallsOf } from "./content-text.js";
export {
	type BuildContextOptions,
	branchSummaryText,
	buildContext,
	buildContextFromPath,
	type ContextMessage,
	type ContextOrigin,
	compactionSummaryText,
	contextMessageOf,
	type EphemeralMessage,
	type SessionContext,
} from "./context.js";
export {
	type AgentErrorCode,
	AgentSessionError,
	CorruptRecordError,
	InvalidRecordError,
	InvalidSessionIdError,
	isAgentSessionError,
	type LeaseHolder,
	SessionLockedError,
	SessionNotFoundError,
} from "./errors.js";
export { creationFactsOf } from "./exact-records.js";
export { assertSessionId, isSessionId, newSessionId, SESSION_ID_PATTERN } from "./ids.js";
export { FIELD_LIMITS, findExcessiveNesting, MAX_NESTING_DEPTH } from "./limits.js";
export { listingTime } from "./list-cursor.js";
export type { SessionMetadata, SessionMetrics, SessionSource, TokenTotals } from "./metadata.js";
export { LEGACY_TOOL_NAMES } from "./migrate.js";
export { modelLabel } from "./model-label.js";
export { isOpaque, type LineProblem, type LineProblemCode, type ParsedLine } from "./parse-line.js";
export { PathSettingsFollower, pathSettingsOf } from "./path-settings.js";
export {
	COMPACTION_TRIGGERS,
	CURRENT_SCHEMA_VERSION,
	isSideRecord,
	MESSAGE_ROLES,
	parentSeqOf,
	RECORD_TYPES,
	SESSION_SOURCES,
	SIDE_RECORD_TYPES,
	STOP_REASONS,
	TURN_OUTCOMES,
} from "./record-kinds.js";
export type {
	ArchiveChangeRecord,
	BranchSummaryRecord,
	CompactionRecord,
	CompactionTrigger,
	CustomMessageRecord,
	CustomRecord,
	DamageAckRecord,
	LabelRecord,
	LeafChangeRecord,
	MessageRecord,
	MessageRole,
	ModelChangeRecord,
	OpaqueRecord,
	PathSettings,
	RecordInput,
	RecordType,
	SessionHeader,
	SessionInfoRecord,
	SessionRecord,
	StopReason,
	StoredRecord,
	ThinkingLevelChangeRecord,
	TurnOutcome,
	TurnRecord,
	UptimeRecord,
	Usage,
} from "./records.js";
export type { MetadataCheck } from "./schema-checks.js";
export { loadSchemaChecks, schemaChecksLoaded, tryCheckMetadata, tryParseRecordLine } from "./schemas-on-demand.js";
export { recordLine, serializeRecord } from "./serialize.js";
export { type ModelStats, type SessionStats, summarizeSessions, type UserStats } from "./stats.js";
export type {
	AcceptedTurn,
	AppendOptions,
	AppendResult,
	CreateSessionOptions,
	EventRelay,
	ForkOptions,
	JournaledTurn,
	ListJsonPage,
	ListOptions,
	ListPage,
	OpenedSession,
	OpenOptions,
	ReadOptions,
	RecordProblem,
	RelayedEvents,
	SearchOptions,
	SeqGap,
	SessionImportTarget,
	SessionLease,
	SessionStore,
	StoreChange,
	StoreWatcher,
	VerifyProblem,
	VerifyProblemKind,
	VerifyReport,
} from "./store-contract.js";
export { isImportTarget } from "./store-contract.js";
export { codePointBoundary, headOf, loneSurrogateIndex, tailOf, toWellFormed, truncateText } from "./text-cut.js";
export { findLoneSurrogate, portableRecord } from "./text-rules.js";
export { MAX_SEARCH_QUERY_CHARS, type SearchHit } from "./text-search.js";
export { blockChars, estimateContentTokens, estimateTextTokens } from "./tokens.js";
export { SessionTree } from "./tree.js";
