import { DEFAULT_PRUNE_MINIMUM_TOKENS } from "@agent/compaction";
import { type CompactionSettings, compactionSettingsOf } from "@agent/session-format/reading";
import type { AgentConfigFile, ScheduledJob } from "./config-schema.js";
import { DEFAULT_MODEL_CALL_TIMEOUT_MS, DEFAULT_TURN_TIMEOUT_MS } from "./deadlines.js";

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
	server: { token?: string; corsOrigins: string[]; bodyLimitBytes: number };
}

export const DEFAULT_MAX_TOOL_STEPS = 25;
export const DEFAULT_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

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
		server: {
			corsOrigins: file.server?.cors_origins ?? [],
			bodyLimitBytes: file.server?.body_limit_bytes ?? DEFAULT_BODY_LIMIT_BYTES,
		},
	};
	if (file.default_model) config.defaultModel = file.default_model;
	if (file.store) config.store = file.store;
	if (file.compaction_model) config.compactionModel = file.compaction_model;
	if (file.server?.token) config.server.token = file.server.token;
	if (file.compaction?.prune_tool_outputs !== undefined) {
		config.pruneToolOutputs = {
			protectTokens: file.compaction.prune_tool_outputs,
			minimumTokens: file.compaction.prune_minimum_tokens ?? DEFAULT_PRUNE_MINIMUM_TOKENS,
		};
	}
	return config;
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
