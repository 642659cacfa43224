export { appendViolation, type InvariantViolation } from "./append-invariants.js";
export { prepareBatch } from "./batch.js";
export { checkCompactions, type ReadLogPath } from "./compaction-check.js";
export {
	type ContentBlock,
	contentBlockSchema,
	contentSchema,
	contentText,
	type ImageBlock,
	imageBlockSchema,
	type TextBlock,
	type ThinkingBlock,
	type ToolCallBlock,
	textBlock,
	textBlockSchema,
	thinkingBlockSchema,
	toolArgumentsSchema,
	toolCallBlockSchema,
	toolCallsOf,
} from "./content.js";
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
export { DeferredSessions, type HeldSession } from "./deferred-sessions.js";
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
export { checkExactSeqs, creationFactsOf } from "./exact-records.js";
export { forkedRecord, forkMetadata, withSessionHeader } from "./fork-plan.js";
export { assertSessionId, isSessionId, newSessionId, SESSION_ID_PATTERN, sessionIdTime } from "./ids.js";
export { lazySchema } from "./lazy-schema.js";
export { FIELD_LIMITS, findExcessiveNesting, MAX_NESTING_DEPTH } from "./limits.js";
export { decodeListCursor, encodeListCursor, type ListCursor, listingTime } from "./list-cursor.js";
export { type ParsedLog, type ParseLogOptions, parseSessionLog, utf8Length } from "./log.js";
export {
	emptyMetrics,
	emptyTokenTotals,
	type SessionMetadata,
	type SessionMetrics,
	type SessionSource,
	sessionMetadataSchema,
	sessionMetricsSchema,
	sessionSourceSchema,
	type TokenTotals,
	tokenTotalsSchema,
} from "./metadata.js";
export {
	applyLegacyCreationFacts,
	applyLegacyRunningFacts,
	applyRecord,
	cloneMetadata,
	modelDefault,
	newMetadata,
	rebuildBase,
	sessionHeaderOf,
} from "./metadata-derive.js";
export { hasHeader, MetadataRebuild } from "./metadata-rebuild.js";
export { LEGACY_TOOL_NAMES, migrateRecord } from "./migrate.js";
export { modelLabel } from "./model-label.js";
export { contextOf, openInMemory } from "./open-path.js";
export {
	type LineProblem,
	type LineProblemCode,
	type ParsedLine,
	parseRecordLine,
	parseRecordValue,
	recordLine,
	serializeRecord,
} from "./parse.js";
export { PathSettingsFollower, pathSettingsOf } from "./path-settings.js";
export { type DescendingPath, type DescendingWalkOptions, walkPathDescending } from "./path-walk.js";
export {
	type ArchiveChangeRecord,
	archiveChangeRecordSchema,
	type BranchSummaryRecord,
	branchSummaryRecordSchema,
	type CompactionRecord,
	type CompactionTrigger,
	CURRENT_SCHEMA_VERSION,
	type CustomMessageRecord,
	type CustomRecord,
	compactionRecordSchema,
	compactionTriggerSchema,
	customMessageRecordSchema,
	customRecordSchema,
	type DamageAckRecord,
	damageAckRecordSchema,
	isOpaque,
	isSideRecord,
	type LabelRecord,
	type LeafChangeRecord,
	labelRecordSchema,
	leafChangeRecordSchema,
	type MessageRecord,
	type MessageRole,
	type ModelChangeRecord,
	messageRecordSchema,
	messageRoleSchema,
	modelChangeRecordSchema,
	type OpaqueRecord,
	type PathSettings,
	parentSeqOf,
	pathSettingsSchema,
	RECORD_TYPES,
	type RecordInput,
	type RecordType,
	type SessionHeader,
	type SessionInfoRecord,
	type SessionRecord,
	SIDE_RECORD_TYPES,
	type StopReason,
	type StoredRecord,
	sessionHeaderSchema,
	sessionInfoRecordSchema,
	sessionRecordSchema,
	stopReasonSchema,
	type ThinkingLevelChangeRecord,
	type TurnOutcome,
	type TurnRecord,
	thinkingLevelChangeRecordSchema,
	turnOutcomeSchema,
	turnRecordSchema,
	type UptimeRecord,
	type Usage,
	uptimeRecordSchema,
	usageSchema,
} from "./records.js";
export { type SessionContextDefaults, sessionContextDefaults } from "./session-defaults.js";
export {
	type CompactionConfig,
	type CompactionSettings,
	compactionConfigSchema,
	compactionSettingsFromConfig,
	compactionSettingsToConfig,
	DEFAULT_COMPACTION_SETTINGS,
} from "./settings.js";
export { type ModelStats, type SessionStats, summarizeSessions } from "./stats.js";
export { checkCreateOptions, checkName, checkSeconds } from "./store-args.js";
export type {
	AppendOptions,
	AppendResult,
	CreateSessionOptions,
	ForkOptions,
	ListOptions,
	ListPage,
	OpenedSession,
	OpenOptions,
	ReadOptions,
	RecordProblem,
	SearchOptions,
	SessionImportTarget,
	SessionLease,
	SessionStore,
	VerifyProblem,
	VerifyProblemKind,
	VerifyReport,
} from "./store-contract.js";
export { isImportTarget } from "./store-contract.js";
export { MAX_SEARCH_QUERY_CHARS, type SearchHit, type TextMatcher, textMatcher } from "./text-search.js";
export { blockChars, estimateContentTokens, estimateTextTokens, IMAGE_TOKEN_ESTIMATE } from "./tokens.js";
export { type PathResult, type RecordLookup, SessionTree, walkPath } from "./tree.js";
export { isIsoTimestamp, validateRecordInput } from "./validate.js";
