import { AgentSessionError, compactionConfigSchema, lazySchema } from "@agent/session-format";
import { parse as parseYaml } from "yaml";
import * as z from "zod";
import { type AgentConfig, resolveConfig } from "./config.js";
import { DURATION_HELP, DURATION_PATTERN } from "./duration.js";

/** One scheduled job: a prompt run in a new session tagged source "cron" (S7.7). */
export const scheduledJobSchema = lazySchema(() =>
	z
		.object({
			id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "job ids are letters, digits, '.', '_' or '-'"),
			/** A cron expression, e.g. "0 9 * * 1-5". */
			schedule: z.string().min(1),
			prompt: z.string().min(1),
			model: z.string().optional(),
			enabled: z.boolean().default(true),
		})
		.strict(),
);

const duration = z.string().regex(DURATION_PATTERN, `must be ${DURATION_HELP}`);

/** `$AGENT_HOME/config.yaml`, in its snake_case spelling. Every key is optional. */
export const agentConfigSchema = lazySchema(() =>
	z
		.object({
			/** The model new sessions use: "provider/model-id" or "demo". */
			default_model: z.string().min(1).optional(),
			compaction: compactionConfigSchema
				.unwrap()
				.extend({
					/**
					 * Prune old tool outputs from the context sent to the model (opencode): the newest this
					 * many tokens of tool output are protected, older output is replaced by a placeholder.
					 */
					prune_tool_outputs: z.number().int().min(0).optional(),
					/** Prune only when it saves at least this many tokens (default 20 000). */
					prune_minimum_tokens: z.number().int().min(0).optional(),
				})
				.strict()
				.optional(),
			/** A separate, cheaper model for summaries. */
			compaction_model: z.string().min(1).optional(),
			/** Where sessions live: postgres://user@host/db, file:///path or a directory (default: the home). */
			store: z.string().min(1).optional(),
			/** "write" (survives a process crash) or "fsync" (also survives power loss). */
			durability: z.enum(["write", "fsync"]).optional(),
			/** Name sessions with an LLM-written title instead of their first user message. */
			llm_titles: z.boolean().optional(),
			/** The most tool-call rounds one turn may take. */
			max_tool_steps: z.number().int().min(1).max(1000).optional(),
			jobs: z.array(scheduledJobSchema).optional(),
			/** What the server deletes on its daily schedule (retention.ts). */
			retention: z
				.object({
					/** Delete sessions archived longer than this ago (e.g. 90d); unset: never. */
					archived_older_than: duration.optional(),
					/** PostgreSQL: delete scheduled jobs' tick claims older than this (default 7d). */
					job_ticks_older_than: duration.optional(),
					/** When the server runs it (a cron expression; default "0 4 * * *", daily at 04:00). */
					schedule: z.string().min(1).optional(),
				})
				.strict()
				.optional(),
			/** A PostgreSQL store's connections, per instance (see docs/operations.md for the arithmetic). */
			postgres: z
				.object({
					/** Connections for reads and writes (default 10). */
					pool_size: z.number().int().min(1).max(1000).optional(),
					/** Sessions whose turns run at once on this instance, one connection each (default 25). */
					max_leases: z.number().int().min(1).max(1000).optional(),
				})
				.strict()
				.optional(),
			server: z
				.object({
					token: z.string().min(16, "a server token needs at least 16 characters").optional(),
					cors_origins: z.array(z.string()).optional(),
					body_limit_bytes: z.number().int().min(1024).optional(),
				})
				.strict()
				.optional(),
		})
		.strict(),
);

export type ScheduledJob = z.infer<typeof scheduledJobSchema>;
export type AgentConfigFile = z.infer<typeof agentConfigSchema>;

/** Parses config.yaml text; `source` names the file in errors. */
export function parseConfig(text: string, source = "config.yaml"): AgentConfig {
	let raw: unknown;
	try {
		raw = parseYaml(text);
	} catch (error) {
		throw new AgentSessionError(
			"INVALID_ARGUMENT",
			`@agent/session: ${source} is not valid YAML (${(error as Error).message}); fix the file or remove it to use the defaults`,
			{ cause: error },
		);
	}
	const result = agentConfigSchema.safeParse(raw ?? {});
	if (!result.success) {
		const issue = result.error.issues[0];
		const where = issue && issue.path.length > 0 ? issue.path.join(".") : "the top level";
		throw new AgentSessionError(
			"INVALID_ARGUMENT",
			`@agent/session: ${source}: ${where}: ${issue?.message ?? "invalid"}; see the configuration section of the @agent/session README`,
			{ cause: result.error },
		);
	}
	return resolveConfig(result.data);
}
