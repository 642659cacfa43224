export {
	type AgentConfig,
	DEFAULT_BODY_LIMIT_BYTES,
	DEFAULT_MAX_CONCURRENT_TURNS,
	DEFAULT_MAX_QUEUED_TURNS,
	DEFAULT_MAX_TOOL_STEPS,
	type RetentionConfig,
	resolveConfig,
	type ServerConfig,
	type ServerLimits,
	type ServerUser,
} from "./config.js";
export { expandEnv } from "./config-env.js";
export { loadConfig } from "./config-load.js";
export type { AgentConfigFile, ScheduledJob } from "./config-schema.js";
export { checkParentSeq } from "./continue-from.js";
export { DURATION_HELP, parseDuration } from "./duration.js";
export {
	type EventError,
	type EventOrigin,
	type SessionEvent,
	type SessionEventListener,
	SessionEvents,
	type SessionEventType,
	toEventError,
} from "./events.js";
export { type InstanceLink, joinInstances } from "./instances.js";
export { isInterruption, TurnInterruption } from "./interruption.js";
export { linearLogSource, NotLinear } from "./log-path-source.js";
export { type MigrationProgress, type MigrationResult, migrateStore } from "./migrate-store.js";
export { readModelContext } from "./model-context.js";
export { type ModelContextSettings, modelContextOf } from "./model-context-of.js";
export {
	canonicalModelName,
	contextWindowOf,
	DEMO_MODEL_NAME,
	DEMO_SPEED_ENV,
	type ModelRegistry,
	type ResolvedModel,
} from "./model-names.js";
export { loadModelRegistry } from "./model-registry.js";
export { cleanTitle, nameFromFirstMessage, titleFromModel } from "./naming.js";
export type { CompactionPreview, PlanCompactionOptions } from "./plan-compaction.js";
export { type ModelContext, type PrunedOutputs, prunedContext } from "./pruned-context.js";
export { type PrunedSession, type PruneOptions, type PruneReport, pruneArchived } from "./retention.js";
export { AgentSessions } from "./runtime.js";
export type {
	AgentSessionsOptions,
	BranchOptions,
	CompactOptions,
	IdentityTurn,
	QueuedTurn,
	SendOptions,
	TurnResult,
} from "./runtime-options.js";
export { followStoreChanges, type StoreFollow } from "./store-follow.js";
export {
	chooseStoreLocation,
	describeStore,
	type OpenStoreOptions,
	openStoreAt,
	type PgCapacity,
	parseStoreLocation,
	type StoreLocation,
} from "./store-url.js";
export { THINKING_LEVELS } from "./thinking-levels.js";
export { type ToolExecution, toolExecutions } from "./tool-log.js";
export type { RuntimeTools, Tool, ToolExecutor, ToolOutcome } from "./tools.js";
export { TurnQueue } from "./turn-queue.js";
