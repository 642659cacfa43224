import { AgentSessionError, compactionConfigSchema, lazySchema } from "@agent/session-format";
import { parse as parseYaml } from "yaml";
import * as z from "zod";
import { type AgentConfig, resolveConfig } from "./config.js";

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
			server: z
				.object({
					token: z.string().min(16, "a server token needs at least 16 characters").optional(),
					cors_origins: z.array(z.string()).optional(),
					body_limit_bytes: z.number().int().min(1024).optional(),
					/** Turns that may wait behind a session's running one; a send past it is refused (429). */
					max_queued_turns: z.number().int().min(0).max(100_000).optional(),
					/** Turns one server instance runs at once, across sessions; the others wait, queued. */
					max_concurrent_turns: z.number().int().min(1).max(10_000).optional(),
					/** A token for GET /metrics alone (a scraper), besides the API's. */
					metrics_token: z.string().min(16, "a metrics token needs at least 16 characters").optional(),
					/** Where OpenTelemetry spans go (OTLP/HTTP, e.g. http://collector:4318); OTEL_EXPORTER_OTLP_ENDPOINT wins. */
					otlp_endpoint: z.string().url("otlp_endpoint must be a URL such as http://collector:4318").optional(),
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
