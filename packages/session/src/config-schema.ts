import { compactionConfigSchema, lazySchema } from "@agent/session-format";
import * as z from "zod";
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

/** A bearer token: long, and sendable in an `Authorization: Bearer` header. */
const tokenSchema = lazySchema(() =>
	z
		.string()
		.min(16, "a token needs at least 16 characters; use a long random string")
		.regex(/^\S+$/, "a token cannot hold spaces or other whitespace (it could not be sent in an Authorization header)"),
);

/** USD a user may spend on model calls per UTC day. */
const spendLimitSchema = lazySchema(() => z.number().finite().min(0));

/** One user of the server: a name (recorded as the creator of their sessions) and a token. */
export const serverUserSchema = lazySchema(() =>
	z
		.object({
			name: z
				.string()
				.regex(
					/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/,
					"a user name is 1 to 64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit",
				),
			token: tokenSchema,
			/** An admin sees and changes every session; a user only their own. */
			admin: z.boolean().optional(),
			/** Overrides server.limits.daily_spend_limit for this user. */
			daily_spend_limit: spendLimitSchema.optional(),
		})
		.strict(),
);

/** Per-client limits of the server (defaults apply on a server that needs a token). */
const serverLimitsSchema = lazySchema(() =>
	z
		.object({
			/** Requests per second per client (user, else remote address) on average... */
			requests_per_second: z.number().finite().positive().optional(),
			/** ...and in a burst. */
			request_burst: z.number().int().min(1).optional(),
			/** Open WebSockets per client. */
			websockets_per_client: z.number().int().min(1).optional(),
			/** Failed authentications per remote address per minute before it gets 429s. */
			auth_failures_per_minute: z.number().int().min(1).optional(),
			/** USD each user may spend on model calls per UTC day (no cap when absent). */
			daily_spend_limit: spendLimitSchema.optional(),
		})
		.strict(),
);

const serverSchema = lazySchema(() =>
	z
		.object({
			token: tokenSchema.optional(),
			users: z
				.array(serverUserSchema)
				.superRefine((users, ctx) => {
					const names = new Set<string>();
					const tokens = new Set<string>();
					users.forEach((user, index) => {
						if (names.has(user.name)) {
							ctx.addIssue({
								code: "custom",
								path: [index, "name"],
								message: `the name "${user.name}" is taken twice`,
							});
						}
						if (tokens.has(user.token)) {
							ctx.addIssue({ code: "custom", path: [index, "token"], message: "two users have the same token" });
						}
						names.add(user.name);
						tokens.add(user.token);
					});
				})
				.optional(),
			cors_origins: z.array(z.string()).optional(),
			body_limit_bytes: z.number().int().min(1024).optional(),
			/** The path prefix the server is served under behind a proxy, e.g. /agents. */
			base_path: z
				.string()
				.regex(
					/^(\/[A-Za-z0-9._~-]+)+$/,
					"a base path starts with / and has no trailing /, e.g. /agents (letters, digits, '.', '_', '~', '-')",
				)
				.optional(),
			/** Trust X-Forwarded-For/-Host/-Proto from this many proxies in front (true: one). */
			trust_proxy: z.union([z.boolean(), z.number().int().min(0).max(10)]).optional(),
			limits: serverLimitsSchema.optional(),
			/** Turns that may wait behind a session's running one; a send past it is refused (429). */
			max_queued_turns: z.number().int().min(0).max(100_000).optional(),
			/** Turns one server instance runs at once, across sessions; the others wait, queued. */
			max_concurrent_turns: z.number().int().min(1).max(10_000).optional(),
			/** A token for GET /metrics alone (a scraper), besides the API's. */
			metrics_token: tokenSchema.optional(),
			/** Where OpenTelemetry spans go (OTLP/HTTP, e.g. http://collector:4318); OTEL_EXPORTER_OTLP_ENDPOINT wins. */
			otlp_endpoint: z.string().url("otlp_endpoint must be a URL such as http://collector:4318").optional(),
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
			server: serverSchema.optional(),
		})
		.strict(),
);

export interface ScheduledJob extends z.infer<typeof scheduledJobSchema> {}
export interface AgentConfigFile extends z.infer<typeof agentConfigSchema> {}
