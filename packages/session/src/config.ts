import { DEFAULT_PRUNE_MINIMUM_TOKENS } from "@agent/compaction";
import { type CompactionSettings, compactionSettingsOf } from "@agent/session-format/reading";
import type { AgentConfigFile, ScheduledJob } from "./config-schema.js";
import { DEFAULT_MODEL_CALL_TIMEOUT_MS, DEFAULT_TURN_TIMEOUT_MS } from "./deadlines.js";
import { parseDuration } from "./duration.js";

/** The configuration the runtime uses, camelCased and with defaults applied. */
export interface AgentConfig {
	defaultModel?: string;
	compaction: CompactionSettings;
	compactionModel?: string;
	/** Old tool outputs pruned from the context (compaction.prune_tool_outputs); absent = never. */
	pruneToolOutputs?: { protectTokens: number; minimumTokens: number };
	durability: "write" | "fsync";
	/** config.yaml's `store:` (see chooseStoreLocation). */
	store?: string;
	llmTitles: boolean;
	maxToolSteps: number;
	/** turn_timeout_seconds, in ms (default 10 minutes). */
	turnTimeoutMs: number;
	/** model_call_timeout_seconds, in ms (default 2 minutes). */
	modelCallTimeoutMs: number;
	jobs: ScheduledJob[];
	server: ServerConfig;
	retention: RetentionConfig;
	/** A PostgreSQL store's pool sizes (config.yaml's postgres:); unset: the store's defaults. */
	postgres: { poolSize?: number; maxLeases?: number };
}

/** config.yaml's `server:` section, resolved (what a server reloads on SIGHUP). */
export interface ServerConfig {
	/** The one admin's token (the user named "admin"); $AGENT_SERVER_TOKEN wins over it. */
	token?: string;
	/** More users, each with a token; `admin` ones see every session. */
	users: ServerUser[];
	corsOrigins: string[];
	bodyLimitBytes: number;
	/** The path prefix the server is served under ("" for none), e.g. "/agents". */
	basePath: string;
	/** How many proxies in front are trusted for X-Forwarded-For/-Host/-Proto (0: none). */
	trustProxy: number;
	/** Per-client limits as configured; absent ones take the server's defaults. */
	limits: ServerLimits;
	/** Turns that may wait behind a session's running one (a send past it gets 429). */
	maxQueuedTurns: number;
	/** Turns one instance runs at once; the others wait, queued. */
	maxConcurrentTurns: number;
	/** A token for GET /metrics alone, besides the API's. */
	metricsToken?: string;
	/** Where OpenTelemetry spans go (OTLP/HTTP). */
	otlpEndpoint?: string;
}

export interface ServerUser {
	name: string;
	token: string;
	admin: boolean;
	/** USD the user may spend per UTC day; overrides limits.dailySpendLimit. */
	dailySpendLimit?: number;
}

export interface ServerLimits {
	requestsPerSecond?: number;
	requestBurst?: number;
	websocketsPerClient?: number;
	authFailuresPerMinute?: number;
	/** USD each user may spend per UTC day. */
	dailySpendLimit?: number;
}

/** config.yaml's `retention:`, in ms. */
export interface RetentionConfig {
	/** Sessions archived longer than this are deleted; absent: never. */
	archivedOlderThanMs?: number;
	/** Job tick claims (PostgreSQL) older than this are deleted. */
	jobTicksOlderThanMs: number;
	/** The cron expression the server runs retention on. */
	schedule: string;
}

export const DEFAULT_JOB_TICKS_KEPT_MS = 7 * 86_400_000;
export const DEFAULT_RETENTION_SCHEDULE = "0 4 * * *";

export const DEFAULT_MAX_TOOL_STEPS = 25;
export const DEFAULT_BODY_LIMIT_BYTES = 4 * 1024 * 1024;
export const DEFAULT_MAX_QUEUED_TURNS = 100;
export const DEFAULT_MAX_CONCURRENT_TURNS = 64;

/** Applies defaults to a parsed config file. */
export function resolveConfig(file: AgentConfigFile = {}): AgentConfig {
	const config: AgentConfig = {
		compaction: compactionSettingsOf(spec(file.compaction)),
		durability: file.durability ?? "write",
		llmTitles: file.llm_titles ?? false,
		maxToolSteps: file.max_tool_steps ?? DEFAULT_MAX_TOOL_STEPS,
		turnTimeoutMs: seconds(file.turn_timeout_seconds) ?? DEFAULT_TURN_TIMEOUT_MS,
		modelCallTimeoutMs: seconds(file.model_call_timeout_seconds) ?? DEFAULT_MODEL_CALL_TIMEOUT_MS,
		jobs: file.jobs ?? [],
		server: resolveServer(file.server),
		retention: retentionOf(file.retention),
		postgres: {
			...(file.postgres?.pool_size !== undefined ? { poolSize: file.postgres.pool_size } : {}),
			...(file.postgres?.max_leases !== undefined ? { maxLeases: file.postgres.max_leases } : {}),
		},
	};
	if (file.default_model) config.defaultModel = file.default_model;
	if (file.store) config.store = file.store;
	if (file.compaction_model) config.compactionModel = file.compaction_model;
	if (file.compaction?.prune_tool_outputs !== undefined) {
		config.pruneToolOutputs = {
			protectTokens: file.compaction.prune_tool_outputs,
			minimumTokens: file.compaction.prune_minimum_tokens ?? DEFAULT_PRUNE_MINIMUM_TOKENS,
		};
	}
	return config;
}

function resolveServer(server: AgentConfigFile["server"] = {}): ServerConfig {
	const limits = server.limits ?? {};
	const resolved: ServerConfig = {
		users: (server.users ?? []).map((user) => ({
			name: user.name,
			token: user.token,
			admin: user.admin ?? false,
			...(user.daily_spend_limit !== undefined ? { dailySpendLimit: user.daily_spend_limit } : {}),
		})),
		corsOrigins: server.cors_origins ?? [],
		bodyLimitBytes: server.body_limit_bytes ?? DEFAULT_BODY_LIMIT_BYTES,
		basePath: server.base_path ?? "",
		maxQueuedTurns: server.max_queued_turns ?? DEFAULT_MAX_QUEUED_TURNS,
		maxConcurrentTurns: server.max_concurrent_turns ?? DEFAULT_MAX_CONCURRENT_TURNS,
		trustProxy: server.trust_proxy === true ? 1 : server.trust_proxy === false ? 0 : (server.trust_proxy ?? 0),
		limits: {
			...(limits.requests_per_second !== undefined ? { requestsPerSecond: limits.requests_per_second } : {}),
			...(limits.request_burst !== undefined ? { requestBurst: limits.request_burst } : {}),
			...(limits.websockets_per_client !== undefined ? { websocketsPerClient: limits.websockets_per_client } : {}),
			...(limits.auth_failures_per_minute !== undefined
				? { authFailuresPerMinute: limits.auth_failures_per_minute }
				: {}),
			...(limits.daily_spend_limit !== undefined ? { dailySpendLimit: limits.daily_spend_limit } : {}),
		},
	};
	if (server.token) resolved.token = server.token;
	if (server.metrics_token) resolved.metricsToken = server.metrics_token;
	if (server.otlp_endpoint) resolved.otlpEndpoint = server.otlp_endpoint;
	return resolved;
}

function retentionOf(retention: AgentConfigFile["retention"]): RetentionConfig {
	const resolved: RetentionConfig = {
		jobTicksOlderThanMs: retention?.job_ticks_older_than
			? parseDuration(retention.job_ticks_older_than, "retention.job_ticks_older_than")
			: DEFAULT_JOB_TICKS_KEPT_MS,
		schedule: retention?.schedule ?? DEFAULT_RETENTION_SCHEDULE,
	};
	if (retention?.archived_older_than) {
		resolved.archivedOlderThanMs = parseDuration(retention.archived_older_than, "retention.archived_older_than");
	}
	return resolved;
}

function seconds(value: number | undefined): number | undefined {
	return value === undefined ? undefined : value * 1000;
}

/** The spec's compaction keys (the pruning keys are the runtime's own). */
function spec(compaction: AgentConfigFile["compaction"]) {
	if (!compaction) return compaction;
	const { prune_tool_outputs: _protect, prune_minimum_tokens: _minimum, ...rest } = compaction;
	return rest;
}
