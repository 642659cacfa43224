import type { EphemeralMessage, SessionMetadata, SessionRecord, SessionStore } from "@agent/session-format/reading";
import type { AgentConfig } from "./config.js";
import type { SessionEvents } from "./events.js";
import type { ResolvedModel } from "./model-names.js";
import type { PgCapacity } from "./store-url.js";
import type { RuntimeTools, ToolExecutor } from "./tools.js";

export interface AgentSessionsOptions {
	/** The store home (default $AGENT_HOME, else ~/.agent); ignored when `store` is given. */
	home?: string;
	/** A store to use instead of the file store at `home`. */
	store?: SessionStore;
	/**
	 * Where sessions live (postgres://… or a path / file://…), as `--store` gives it; default
	 * AGENT_STORE, else config.yaml's `store:`, else the file store at `home`. Ignored when `store` is given.
	 */
	storeUrl?: string;
	/** Configuration; default: `<home>/config.yaml`. */
	config?: AgentConfig;
	/**
	 * The tools of every turn: one executor for every session, or a function that picks one per
	 * session (undefined: no tools for that session). A send's own `toolExecutor` comes first.
	 */
	toolExecutor?: RuntimeTools;
	/** Context injected fresh on every model call and never persisted (memory recall, environment...). */
	ephemeral?: (sessionId: string) => EphemeralMessage[] | Promise<EphemeralMessage[]>;
	/**
	 * Resolves model names; default: pi-ai's registry plus "demo". Tests pass the faux provider here.
	 * A model of pi-ai's registry resolved without an API key is refused (MODEL_NOT_CONFIGURED).
	 */
	resolveModel?: (name: string) => ResolvedModel | Promise<ResolvedModel>;
	/** How long a turn waits for another process's lease on the session, in ms (default 5 minutes). */
	leaseWaitMs?: number;
	/**
	 * The longest a turn may run, in ms, before it is stopped (whatever it was waiting for: a model,
	 * a tool, a retry) and recorded with the outcome `timed_out`; the session's next turn then runs.
	 * Default: config.yaml's turn_timeout_seconds, else 10 minutes. Infinity: no deadline.
	 */
	turnTimeoutMs?: number;
	/**
	 * The longest a model call may go without progress (no first event, or none since the last),
	 * in ms, before it is stopped: the turn then ends as `timed_out` (a summarizer's call is retried
	 * as compaction retries). Default: model_call_timeout_seconds, else 2 minutes.
	 */
	modelCallTimeoutMs?: number;
	/**
	 * The longest record (line) the file store reads and writes (its maxLineBytes; default 256 MiB).
	 * A server sets less, so that one giant line in a log cannot stall it: such a line is reported
	 * and skipped instead of decoded.
	 */
	maxLineBytes?: number;
	/** A PostgreSQL store's pool sizes, over config.yaml's `postgres:` (the server's --pg-* flags). */
	postgres?: PgCapacity;
	/** Where warnings go (a setting the runtime had to override, say); default console.warn. */
	onWarning?: (message: string) => void;
	/** The most turns this runtime runs at once, across sessions (default: no limit); the others wait, queued. */
	maxConcurrentTurns?: number;
}

export interface SendOptions {
	/** "provider/model-id" or "demo"; default: the session's model, else the configured default. */
	model?: string;
	signal?: AbortSignal;
	/** The tools of this turn, instead of the runtime's (AgentSessionsOptions.toolExecutor). */
	toolExecutor?: ToolExecutor;
	/** Ephemeral context for this turn only, added to the runtime's. */
	ephemeral?: EphemeralMessage[];
	/**
	 * The thinking level for this turn and the ones after it ("off", "minimal", "low", "medium",
	 * "high", "xhigh"): a thinking_level_change record when it differs from the path's. The path's
	 * level is passed to the model as pi-ai's reasoning option.
	 */
	thinkingLevel?: string;
	/**
	 * The record the user message continues from (the branch a user is looking at); default: the
	 * active leaf. When it is not the active leaf, the leaf moves there under the lease, with the
	 * message (which names it as its parent): the model gets the context of that branch.
	 */
	parentSeq?: number;
}

export interface BranchOptions {
	/**
	 * Summarize the branch being left (pi): a branch_summary record at the new leaf, so the context
	 * from there on carries what was tried on the other branch.
	 */
	summarize?: boolean;
	/** The summarizer; default: compaction_model, else the session's model. */
	model?: string;
	signal?: AbortSignal;
}

export interface IdentityTurn extends QueuedTurn {
	sessionId: string;
	/** True when the identity had no session yet and this send created one. */
	created: boolean;
}

export interface TurnResult {
	turnId: string;
	sessionId: string;
	/** Every record the turn appended, in order: the user message, replies, tool results, compactions. */
	records: SessionRecord[];
}

export interface QueuedTurn {
	turnId: string;
	/** 0 when the turn starts at once; n when n turns of the session are ahead of it. */
	position: number;
	/**
	 * Settles once the turn is accepted for good: noted in the store's turn journal, so that if
	 * this process dies before the turn is recorded, it is recorded as interrupted (with its user
	 * message) when the session is next used. Acknowledge the turn (HTTP 202) after it; when it
	 * rejects, the turn does not run and `done` rejects with the same error.
	 */
	accepted: Promise<void>;
	done: Promise<TurnResult>;
}

export interface CompactOptions {
	model?: string;
	/** The window of the session's model (caps what is kept); default: the summarizing model's. */
	contextWindow?: number;
	customInstructions?: string;
	keepRecentTokens?: number;
	signal?: AbortSignal;
	/**
	 * Work out first how many summarizer calls the compaction takes (one more read of the material),
	 * so that compaction.started and compaction.progress carry `chunksEstimated` (a progress bar's total).
	 */
	estimateChunks?: boolean;
}

/**
 * What the runtime's parts (turn execution, compaction orchestration) share with the facade:
 * the store, configuration and events, and the few decisions made in one place.
 */
export interface RuntimeCore {
	readonly store: SessionStore;
	readonly config: AgentConfig;
	readonly events: SessionEvents;
	readonly options: AgentSessionsOptions;
	/** Deferred sessions this runtime created that are not written yet (no assistant message so far). */
	readonly unwritten: Set<string>;
	/** The model for a call (loads pi-ai); MODEL_NOT_FOUND or MODEL_NOT_CONFIGURED when it cannot run. */
	resolve(name: string): Promise<ResolvedModel>;
	/** The model a session without one uses. */
	defaultModel(): string;
	/** How long a turn waits for another process's lease on the session, in ms. */
	leaseWaitMs(): number;
	/** The deadlines in force (options, else config.yaml, else the defaults), in ms. */
	turnTimeoutMs(): number;
	modelCallTimeoutMs(): number;
	/** Tells `session.updated` (a store operation other than append wrote a deferred session out). */
	updated(metadata: SessionMetadata): SessionMetadata;
}
