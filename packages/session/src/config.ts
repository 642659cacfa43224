import fs from "node:fs/promises";
import path from "node:path";
import { DEFAULT_PRUNE_MINIMUM_TOKENS } from "@agent/compaction";
import { AgentSessionError, type CompactionSettings, compactionSettingsOf } from "@agent/session-format/reading";
import type { AgentConfigFile, ScheduledJob } from "./config-file.js";

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
	jobs: ScheduledJob[];
	server: {
		token?: string;
		corsOrigins: string[];
		bodyLimitBytes: number;
		maxQueuedTurns: number;
		maxConcurrentTurns: number;
		metricsToken?: string;
		otlpEndpoint?: string;
	};
}

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
		jobs: file.jobs ?? [],
		server: {
			corsOrigins: file.server?.cors_origins ?? [],
			bodyLimitBytes: file.server?.body_limit_bytes ?? DEFAULT_BODY_LIMIT_BYTES,
			maxQueuedTurns: file.server?.max_queued_turns ?? DEFAULT_MAX_QUEUED_TURNS,
			maxConcurrentTurns: file.server?.max_concurrent_turns ?? DEFAULT_MAX_CONCURRENT_TURNS,
		},
	};
	if (file.server?.metrics_token) config.server.metricsToken = file.server.metrics_token;
	if (file.server?.otlp_endpoint) config.server.otlpEndpoint = file.server.otlp_endpoint;
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

/** The spec's compaction keys (the pruning keys are the runtime's own). */
function spec(compaction: AgentConfigFile["compaction"]) {
	if (!compaction) return compaction;
	const { prune_tool_outputs: _protect, prune_minimum_tokens: _minimum, ...rest } = compaction;
	return rest;
}

/** Reads `<home>/config.yaml`; a missing file means the defaults. */
export async function loadConfig(home: string): Promise<AgentConfig> {
	const file = path.join(home, "config.yaml");
	let text: string;
	try {
		text = await fs.readFile(file, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return resolveConfig();
		throw new AgentSessionError("STORAGE_FAILURE", `@agent/session: cannot read ${file}: ${(error as Error).message}`, {
			cause: error,
		});
	}
	// The YAML parser and the file's schema are loaded only when there is a file to parse.
	const { parseConfig } = await import("./config-file.js");
	return parseConfig(text, file);
}
