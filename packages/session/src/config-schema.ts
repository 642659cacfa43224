import { compactionConfigSchema, lazySchema } from "@agent/session-format";
import * as z from "zod";

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
			/** The longest a turn may run before it is stopped and recorded as timed_out (default 600). */
			turn_timeout_seconds: z.number().positive().optional(),
			/** The longest a model call may go without progress before the turn is stopped (default 120). */
			model_call_timeout_seconds: z.number().positive().optional(),
			/** The most tool-call rounds one turn may take. */
			max_tool_steps: z.number().int().min(1).max(1000).optional(),
			jobs: z.array(scheduledJobSchema).optional(),
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

export interface ScheduledJob extends z.infer<typeof scheduledJobSchema> {}
export interface AgentConfigFile extends z.infer<typeof agentConfigSchema> {}
