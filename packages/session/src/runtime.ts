import { randomBytes } from "node:crypto";
import {
	estimateContextTokens,
	oversizedBlockTokens,
	shouldCompact,
	compact as summarize,
	truncateOversizedBlocks,
} from "@agent/compaction";
import {
	AgentSessionError,
	buildContextFromPath,
	type CompactionSettings,
	type CompactionTrigger,
	type ContentBlock,
	type CreateSessionOptions,
	type EphemeralMessage,
	type ListOptions,
	type ListPage,
	type OpenedSession,
	type OpenOptions,
	type RecordInput,
	type SessionLease,
	type SessionMetadata,
	type SessionRecord,
	type SessionStore,
	type TurnRecord,
	textBlock,
} from "@agent/session-format/reading";
import { resolveHome } from "@agent/session-fs";
import { checkUserContent, noteAcceptedTurn, recordLostTurns, recordUnstartedTurn } from "./accepted-turns.js";
import { summaryOfBranchLeft } from "./branch-left.js";
import { type AgentConfig, loadConfig, resolveConfig } from "./config.js";
import { checkParentSeqShape } from "./continue-from.js";
import { DeferredLease } from "./deferred-lease.js";
import { type SessionEventListener, SessionEvents, toEventError } from "./events.js";
import { isInterruption } from "./interruption.js";
import { KeyedSerial } from "./keyed-serial.js";
import { modelContextOf } from "./model-context.js";
import { canonicalModelName, defaultModelName, type ResolvedModel, resolveModel } from "./models.js";
import { nameFromFirstMessage, titleFromModel } from "./naming.js";
import { type CompactionPreview, type PlanCompactionOptions, previewCompaction } from "./plan-compaction.js";
import type { ModelContext } from "./pruned-context.js";
import { chooseStoreLocation, openStoreAt, type PgCapacity } from "./store-url.js";
import { type ToolExecution, toolExecutions } from "./tool-log.js";
import type { ToolExecutor } from "./tools.js";
import { checkThinkingLevel, runTurn } from "./turn.js";
import { TurnControls } from "./turn-controls.js";
import { TurnQueue } from "./turn-queue.js";
import { turnRecordInput } from "./turn-record.js";
import { TurnSlots } from "./turn-slots.js";

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
	toolExecutor?: ToolExecutor;
	/** Context injected fresh on every model call and never persisted (memory recall, environment...). */
	ephemeral?: (sessionId: string) => EphemeralMessage[] | Promise<EphemeralMessage[]>;
	/** Resolves model names; default: pi-ai's registry plus "demo". Tests pass the faux provider here. */
	resolveModel?: (name: string) => ResolvedModel;
	/** How long a turn waits for another process's lease on the session, in ms (default 5 minutes). */
	leaseWaitMs?: number;
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
 * The session runtime: one turn at a time per session (in-process queue + the store's
 * cross-process lease), auto-compaction, typed events. Both apps are thin shells over it.
 */
export class AgentSessions {
	readonly store: SessionStore;
	readonly config: AgentConfig;
	readonly events: SessionEvents;
	private readonly queue = new TurnQueue();
	private readonly controls = new TurnControls();
	private readonly slots: TurnSlots;
	private readonly options: AgentSessionsOptions;
	private turnCounter = 0;
	/** Deferred sessions this runtime created that are not on disk yet (no assistant message so far). */
	private readonly unwritten = new Set<string>();
	/** Per identity key: the lookup-or-create in flight, so two sends never create two sessions. */
	private readonly identityLookups = new KeyedSerial();
	private warnedKeepRecentCap = false;

	private constructor(store: SessionStore, config: AgentConfig, options: AgentSessionsOptions) {
		this.store = store;
		this.config = config;
		this.options = options;
		this.slots = new TurnSlots(options.maxConcurrentTurns);
		this.events = new SessionEvents((error) => console.error("@agent/session: an event listener threw:", error));
	}

	/** Opens the runtime on a store (the file store at `home` by default) and its config.yaml. */
	static async open(options: AgentSessionsOptions = {}): Promise<AgentSessions> {
		const home = resolveHome(options.home);
		const config = options.config ?? (options.store ? resolveConfig() : await loadConfig(home));
		const store =
			options.store ??
			(await openStoreAt(
				chooseStoreLocation(options.storeUrl, config.store, { dir: home, explicit: options.home !== undefined }),
				{
					durability: config.durability,
					...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}),
					postgres: { ...config.postgres, ...options.postgres },
				},
			));
		return new AgentSessions(store, config, options);
	}

	subscribe(listener: SessionEventListener, options: { sessionId?: string } = {}): () => void {
		return this.events.subscribe(listener, options);
	}

	async create(options: CreateSessionOptions = {}): Promise<SessionMetadata> {
		const model = canonicalModelName(options.model ?? this.defaultModel());
		this.resolve(model);
		const metadata = await this.store.create({ ...options, model });
		// A deferred session is announced when it is written out (with its first reply): until then
		// no listing shows it, and it may never exist.
		if (options.deferred) this.unwritten.add(metadata.id);
		else this.events.emit({ type: "session.created", sessionId: metadata.id, metadata });
		return metadata;
	}

	open(sessionId: string, options?: OpenOptions): Promise<OpenedSession> {
		return this.store.open(sessionId, options);
	}

	list(options?: ListOptions): Promise<ListPage> {
		return this.store.list(options);
	}

	metadata(sessionId: string): Promise<SessionMetadata> {
		return this.store.metadata(sessionId);
	}

	/** The model a session would use: its own, else the configured default. */
	defaultModel(): string {
		return defaultModelName(this.config.defaultModel);
	}

	/** Queues a turn and returns at once with its position; `done` settles when the turn ends. */
	enqueue(sessionId: string, content: string | ContentBlock[], options: SendOptions = {}): QueuedTurn {
		// An unknown model or thinking level fails here, at once, rather than when the turn's time comes.
		if (options.model !== undefined) this.resolve(options.model);
		if (options.thinkingLevel !== undefined) checkThinkingLevel(options.thinkingLevel);
		if (options.parentSeq !== undefined) checkParentSeqShape(options.parentSeq);
		const blocks = typeof content === "string" ? [textBlock(content)] : content;
		checkUserContent(blocks);
		// Unique across processes too: instances sharing a store key their turn journals by it.
		const turnId = `${Date.now().toString(36)}-${(++this.turnCounter).toString(36)}-${randomBytes(3).toString("hex")}`;
		const signal = this.controls.add(sessionId, turnId, options.signal);
		const noted = this.noteAccepted(sessionId, turnId, blocks);
		const accepted = noted.then(() => undefined);
		accepted.catch(() => {});
		let position = 0;
		const done = this.queue.enqueue(
			sessionId,
			async () => {
				const journaled = await noted.catch((error: unknown) => {
					// Never accepted (the journal could not note it): said, so nothing shows it queued forever.
					this.events.emit({ type: "turn.failed", sessionId, turnId, error: toEventError(error) });
					throw error;
				});
				return this.slots.run(
					() => this.executeTurn(sessionId, turnId, blocks, { ...options, signal }, journaled),
					signal,
				);
			},
			(queuedAt) => {
				position = queuedAt;
				this.events.emit({ type: "turn.queued", sessionId, turnId, position: queuedAt });
			},
		);
		const forget = () => this.controls.remove(turnId);
		done.then(forget, forget);
		return { turnId, position, accepted, done };
	}

	/** Notes an accepted turn in the store's journal (accepted-turns.ts); false when nothing was noted. */
	private noteAccepted(sessionId: string, turnId: string, content: ContentBlock[]): Promise<boolean> {
		// A deferred session keeps nothing before its first reply: its first turn is not journaled either.
		if (this.unwritten.has(sessionId)) return Promise.resolve(false);
		return noteAcceptedTurn(this.store, sessionId, turnId, content);
	}

	/**
	 * Cancels a queued or running turn of a session (the running one when no turnId is given):
	 * its signal aborts, the turn ends with ABORTED and what it stored stays stored. Returns the
	 * turn cancelled, or undefined when there was none.
	 */
	cancel(sessionId: string, turnId?: string): string | undefined {
		const target = turnId ?? this.controls.runningTurn(sessionId);
		if (target === undefined) return undefined;
		return this.controls.cancel(sessionId, target) ? target : undefined;
	}

	/** The turn of the session running now in this runtime, if any. */
	runningTurn(sessionId: string): string | undefined {
		return this.controls.runningTurn(sessionId);
	}

	/**
	 * Sends to the latest session of an identity (fern's channel + user, rfc-0064's agent +
	 * sender), creating one tagged with the key when it has none (or only archived ones). With
	 * `owner`, only the sessions that user created count (see sessionForIdentity).
	 */
	async enqueueForIdentity(
		identityKey: string,
		content: string | ContentBlock[],
		options: SendOptions & { create?: Omit<CreateSessionOptions, "identityKey">; owner?: string } = {},
	): Promise<IdentityTurn> {
		if (options.model !== undefined) this.resolve(options.model);
		const { create, owner, ...sendOptions } = options;
		const { sessionId, created } = await this.sessionForIdentity(
			identityKey,
			{ ...create, ...(options.model !== undefined ? { model: options.model } : {}) },
			owner,
		);
		return { ...this.enqueue(sessionId, content, sendOptions), sessionId, created };
	}

	/**
	 * The latest session of an identity (not archived), or a new one tagged with the key (created
	 * with `create`). Lookups of one key run one at a time, so two sends never create two sessions.
	 * With `owner` (a server's user), the key is that user's: only sessions they created are found,
	 * and a new one records them as its creator.
	 */
	async sessionForIdentity(
		identityKey: string,
		create: Omit<CreateSessionOptions, "identityKey"> = {},
		owner?: string,
	): Promise<{ sessionId: string; created: boolean }> {
		return this.identityLookups.run(identityKey, async () => {
			const found =
				owner === undefined
					? await this.store.findByIdentity(identityKey)
					: (await this.store.list({ identityKey, createdBy: owner, limit: 1 })).sessions[0];
			if (found) return { sessionId: found.id, created: false };
			const metadata = await this.create({
				...create,
				...(owner !== undefined ? { createdBy: owner } : {}),
				identityKey,
			});
			return { sessionId: metadata.id, created: true };
		});
	}

	/**
	 * The context the model would get now for a session (or a leaf of it): the store's context,
	 * with old tool outputs pruned when compaction.prune_tool_outputs is set (`pruned` says which),
	 * and blocks too big for the session's model cut to head and tail (`truncated` says which).
	 */
	async modelContext(sessionId: string, options?: OpenOptions): Promise<ModelContext> {
		const settings = {
			config: this.config,
			defaultModel: () => this.defaultModel(),
			windowOf: (model: string) => this.windowOf(model),
		};
		return modelContextOf(this.store, sessionId, settings, options);
	}

	/** The outcome of every turn of the session (its `turn` records, oldest first): the persisted turn events. */
	async turns(sessionId: string): Promise<TurnRecord[]> {
		const turns: TurnRecord[] = [];
		for await (const record of this.store.read(sessionId)) if (record.recordType === "turn") turns.push(record);
		return turns;
	}

	/**
	 * Every tool execution of the session, in log order, with duration and outcome: derived from
	 * the log (the assistant message with the call and the toolResult record that answers it).
	 */
	async toolLog(sessionId: string): Promise<ToolExecution[]> {
		return toolExecutions(this.store.read(sessionId));
	}

	/** Runs a turn (after any queued before it) and resolves with the records it appended. */
	send(sessionId: string, content: string | ContentBlock[], options: SendOptions = {}): Promise<TurnResult> {
		return this.enqueue(sessionId, content, options).done;
	}

	/**
	 * What `compact(sessionId, options)` would do now, writing nothing and taking no lease: the
	 * same summarizer, settings, window and system prompt, so the plan is the one compact carries out.
	 */
	async planCompaction(sessionId: string, options: PlanCompactionOptions = {}): Promise<CompactionPreview> {
		const summarizer = await this.manualSummarizer(sessionId, options.model);
		return previewCompaction(this.store, sessionId, summarizer, this.settingsFor(options), options);
	}

	/** Compacts a session now (trigger "manual"); resolves with the compaction record, or undefined if nothing to compact. */
	async compact(sessionId: string, options: CompactOptions = {}): Promise<SessionRecord | undefined> {
		return this.queue.enqueue(sessionId, async () => {
			const model = await this.manualSummarizer(sessionId, options.model);
			const lease = await this.store.lease(sessionId, { waitMs: this.leaseWaitMs() });
			this.unwritten.delete(sessionId);
			try {
				return await this.compactUnderLease(lease, model, "manual", options);
			} finally {
				await lease.release();
			}
		});
	}

	/** A scheduled job's run: a new session tagged source "cron" with its job id (S7.7), then one turn. */
	async runScheduled(jobId: string, prompt: string, options: SendOptions = {}): Promise<TurnResult> {
		const metadata = await this.create({
			source: "cron",
			cronJobId: jobId,
			...(options.model ? { model: options.model } : {}),
		});
		return this.send(metadata.id, prompt, options);
	}

	async rename(sessionId: string, name: string): Promise<SessionMetadata> {
		return this.updated(await this.store.rename(sessionId, name));
	}

	async archive(sessionId: string): Promise<SessionMetadata> {
		return this.updated(await this.store.archive(sessionId));
	}

	async unarchive(sessionId: string): Promise<SessionMetadata> {
		return this.updated(await this.store.unarchive(sessionId));
	}

	async branch(sessionId: string, atSeq: number, options: BranchOptions = {}): Promise<SessionMetadata> {
		if (!options.summarize) return this.updated(await this.store.branch(sessionId, atSeq));
		return this.queue.enqueue(sessionId, async () => {
			const summarizer = await this.manualSummarizer(sessionId, options.model);
			// Summarize first: when the summarizer fails, the leaf has not moved and nothing was written.
			const summary = await summaryOfBranchLeft(this.store, sessionId, atSeq, summarizer, options.signal);
			const moved = await this.store.branch(sessionId, atSeq);
			if (!summary) return this.updated(moved);
			const result = await this.store.append(sessionId, [summary]);
			for (const record of result.records) this.events.emit({ type: "record.appended", sessionId, record });
			return this.updated(result.metadata);
		});
	}

	async label(sessionId: string, targetSeq: number, label: string): Promise<SessionMetadata> {
		return this.updated(await this.store.label(sessionId, targetSeq, label));
	}

	async fork(sessionId: string, options: { atSeq?: number; name?: string } = {}): Promise<SessionMetadata> {
		const metadata = await this.store.fork(sessionId, options);
		this.unwritten.delete(sessionId);
		this.events.emit({ type: "session.created", sessionId: metadata.id, metadata });
		return metadata;
	}

	async delete(sessionId: string): Promise<void> {
		await this.queue.enqueue(sessionId, () => this.store.delete(sessionId));
		this.unwritten.delete(sessionId);
		this.events.emit({ type: "session.deleted", sessionId });
	}

	/** Waits for every queued turn to finish. */
	idle(): Promise<void> {
		return this.queue.idle();
	}

	/** Turns queued or running for a session. */
	queueDepth(sessionId: string): number {
		return this.queue.depth(sessionId);
	}

	private async executeTurn(
		sessionId: string,
		turnId: string,
		content: ContentBlock[],
		options: SendOptions,
		journaled: boolean,
	): Promise<TurnResult> {
		const progress = { leased: false, keepNoted: false };
		try {
			return await this.runQueuedTurn(sessionId, turnId, content, options, journaled, progress);
		} finally {
			// Its turn record is in the log (or it never started, or it was recorded as lost elsewhere).
			if (journaled && !progress.keepNoted) {
				await this.store.forgetAcceptedTurn?.(sessionId, turnId).catch(() => undefined);
			}
		}
	}

	private async runQueuedTurn(
		sessionId: string,
		turnId: string,
		content: ContentBlock[],
		options: SendOptions,
		journaled: boolean,
		progress: { leased: boolean; keepNoted: boolean },
	): Promise<TurnResult> {
		this.controls.started(turnId);
		this.events.emit({ type: "turn.started", sessionId, turnId });
		try {
			// Cancelled while it waited in the queue: it never starts, and nothing is written.
			if (options.signal?.aborted) {
				throw new AgentSessionError("ABORTED", "@agent/session: the turn was cancelled before it started", {
					cause: options.signal.reason,
				});
			}
			const metadata = await this.store.metadata(sessionId);
			const model = this.resolve(options.model ?? (metadata.model || this.defaultModel()));
			const ephemeral = [...((await this.options.ephemeral?.(sessionId)) ?? []), ...(options.ephemeral ?? [])];
			const leaseOptions = { waitMs: this.leaseWaitMs(), ...(options.signal ? { signal: options.signal } : {}) };
			// A deferred session not yet written takes no lease (that would write it out) until its first reply.
			const deferred = this.unwritten.has(sessionId)
				? new DeferredLease(this.store, sessionId, leaseOptions, (written) =>
						this.events.emit({ type: "session.created", sessionId, metadata: written }),
					)
				: undefined;
			const lease = deferred ?? (await this.store.lease(sessionId, leaseOptions));
			progress.leased = true;
			if (!deferred) {
				await recordLostTurns(this.store, lease, turnId, {
					journaled,
					ours: (id) => this.controls.has(id),
					onRecord: (record) => this.events.emit({ type: "record.appended", sessionId, record }),
				});
			}
			const startedAt = new Date();
			const records: SessionRecord[] = [];
			try {
				await runTurn(
					{
						store: this.store,
						events: this.events,
						maxToolSteps: this.config.maxToolSteps,
						...(this.options.toolExecutor ? { toolExecutor: this.options.toolExecutor } : {}),
						...(this.config.pruneToolOutputs ? { pruneToolOutputs: this.config.pruneToolOutputs } : {}),
						reserveTokens: this.config.compaction.reserveTokens,
						compactIfNeeded: (held, turnModel, trigger, signal, opened) =>
							this.autoCompact(held, turnModel, trigger, signal, opened),
						onAppended: (record) => records.push(record),
					},
					lease,
					{
						sessionId,
						turnId,
						content,
						model,
						ephemeral,
						keepFailedReply: () => deferred === undefined || deferred.written,
						...(options.signal ? { signal: options.signal } : {}),
						...(options.thinkingLevel !== undefined ? { thinkingLevel: options.thinkingLevel } : {}),
						...(options.parentSeq !== undefined ? { parentSeq: options.parentSeq } : {}),
					},
				);
				if (!metadata.name) await this.nameSession(lease, content, model);
				await this.recordTurn(lease, { turnId, startedAt, model: model.name, records });
			} catch (error) {
				if (deferred && !deferred.written) await this.discardUnwritten(sessionId);
				else {
					const interrupted = isInterruption(options.signal?.reason);
					await this.recordTurn(lease, { turnId, startedAt, model: model.name, records, error, interrupted }).catch(
						() => {},
					);
				}
				throw error;
			} finally {
				if (deferred?.written) this.unwritten.delete(sessionId);
				await lease.release();
			}
			const result = { turnId, sessionId, records };
			this.events.emit({ type: "turn.completed", sessionId, turnId, records });
			return result;
		} catch (error) {
			// Stopped by its process stopping before it started: it was acknowledged, so the log tells it
			// (or, when that fails, the journal keeps it, to be recorded as lost when the session is next used).
			if (journaled && !progress.leased && isInterruption(options.signal?.reason)) {
				progress.keepNoted = !(await recordUnstartedTurn(this.store, sessionId, turnId, {
					waitMs: Math.min(this.leaseWaitMs(), 5000),
					onRecord: (record) => this.events.emit({ type: "record.appended", sessionId, record }),
				}));
			}
			this.events.emit({ type: "turn.failed", sessionId, turnId, error: toEventError(error) });
			throw error;
		}
	}

	/** Closes a turn with its `turn` record (outcome, duration = uptime, usage). */
	private async recordTurn(
		lease: SessionLease,
		turn: {
			turnId: string;
			startedAt: Date;
			model: string;
			records: SessionRecord[];
			error?: unknown;
			interrupted?: boolean;
		},
	): Promise<void> {
		const result = await lease.append([turnRecordInput({ ...turn, endedAt: new Date() })]);
		const sessionId = lease.sessionId;
		for (const record of result.records) this.events.emit({ type: "record.appended", sessionId, record });
		this.events.emit({ type: "session.updated", sessionId, metadata: result.metadata });
	}

	/** A deferred session whose first turn failed before any reply: forgotten, nothing was written. */
	private async discardUnwritten(sessionId: string): Promise<void> {
		this.unwritten.delete(sessionId);
		await this.store.delete(sessionId);
		this.events.emit({ type: "session.deleted", sessionId });
	}

	private async autoCompact(
		lease: SessionLease,
		model: ResolvedModel,
		trigger: CompactionTrigger,
		signal?: AbortSignal,
		resumed?: OpenedSession,
	): Promise<SessionRecord | undefined> {
		const settings = this.config.compaction;
		if (!settings.enabled) return undefined;
		if (trigger === "threshold") {
			const opened = resumed ?? (await this.store.open(lease.sessionId));
			const systemPrompt = opened.context.systemPrompt;
			// Judged on what the model is sent: blocks too big for the window are cut, not summarized.
			const maxBlockTokens = oversizedBlockTokens(model.model.contextWindow, settings.reserveTokens);
			const sent = truncateOversizedBlocks(buildContextFromPath(opened.path).messages, maxBlockTokens).messages;
			const tokens = estimateContextTokens(sent, systemPrompt ? { systemPrompt } : {});
			if (!shouldCompact(tokens, model.model.contextWindow, settings)) return undefined;
		}
		const summarizer = this.config.compactionModel ? this.resolve(this.config.compactionModel) : model;
		return this.compactUnderLease(lease, summarizer, trigger, {
			contextWindow: model.model.contextWindow,
			...(signal ? { signal } : {}),
		});
	}

	private async compactUnderLease(
		lease: SessionLease,
		model: ResolvedModel,
		trigger: CompactionTrigger,
		options: CompactOptions,
	): Promise<SessionRecord | undefined> {
		const sessionId = lease.sessionId;
		const { plan, keepRecentTokens, reduction, chunks } = await previewCompaction(
			this.store,
			sessionId,
			model,
			this.settingsFor(options),
			options,
		);
		if (keepRecentTokens.capped && !this.warnedKeepRecentCap) {
			this.warnedKeepRecentCap = true;
			(this.options.onWarning ?? console.warn)(`@agent/session: ${keepRecentTokens.capped}`);
		}
		if (!plan) return undefined;
		if (trigger === "threshold" && reduction && !reduction.reduces) {
			// Summarizing would only spend calls: the tokens are in what is kept word for word. (A manual
			// compaction runs as asked, and an overflow's is the provider's word against our estimate.)
			this.events.emit({
				type: "compaction.skipped",
				sessionId,
				trigger,
				reason: reduction.reason ?? "compacting cannot reduce the context",
				contextTokens: plan.contextTokens,
				tokensAfter: reduction.tokensAfter,
			});
			return undefined;
		}
		const messagesTotal = plan.parts.reduce((sum, part) => sum + part.messageCount, 0);
		const estimated = chunks ? { chunksEstimated: chunks.chunks } : {};
		this.events.emit({
			type: "compaction.started",
			sessionId,
			trigger,
			messages: messagesTotal,
			tokensBefore: plan.tokensBefore,
			...estimated,
		});
		// Calls and messages of the parts already done, so that progress counts over the whole plan.
		const done = { chunks: 0, messages: 0, part: 0, partChunks: 0 };
		try {
			const input: RecordInput = await summarize(plan, {
				model: model.model,
				onProgress: (progress) => {
					if (progress.partIndex !== done.part) {
						const previous = plan.parts[done.part];
						done.messages += previous?.messageCount ?? 0;
						done.chunks += done.partChunks;
						done.part = progress.partIndex;
					}
					done.partChunks = progress.chunks;
					this.events.emit({
						type: "compaction.progress",
						sessionId,
						trigger,
						chunks: done.chunks + progress.chunks,
						...estimated,
						messagesDone: done.messages + progress.messagesDone,
						messagesTotal,
					});
				},
				...(model.apiKey ? { completeOptions: { apiKey: model.apiKey } } : {}),
				trigger,
				...(options.signal ? { signal: options.signal } : {}),
			});
			const result = await lease.append([input]);
			const record = result.records[0] as SessionRecord;
			this.events.emit({ type: "record.appended", sessionId, record });
			this.events.emit({ type: "compaction.completed", sessionId, record });
			this.events.emit({ type: "session.updated", sessionId, metadata: result.metadata });
			return record;
		} catch (error) {
			this.events.emit({ type: "compaction.failed", sessionId, trigger, error: toEventError(error) });
			throw error;
		}
	}

	/** A manual compaction's summarizer: the given model, else compaction_model, else the session's. */
	private async manualSummarizer(sessionId: string, model?: string): Promise<ResolvedModel> {
		if (model !== undefined) return this.resolve(model);
		if (this.config.compactionModel) return this.resolve(this.config.compactionModel);
		const metadata = await this.store.metadata(sessionId);
		return this.resolve(metadata.model || this.defaultModel());
	}

	private settingsFor(options: { keepRecentTokens?: number }): CompactionSettings {
		const settings = { ...this.config.compaction };
		if (options.keepRecentTokens !== undefined) settings.keepRecentTokens = options.keepRecentTokens;
		return settings;
	}

	private async nameSession(lease: SessionLease, content: ContentBlock[], model: ResolvedModel): Promise<void> {
		const name = this.config.llmTitles ? await titleFromModel(model, content) : nameFromFirstMessage(content);
		if (!name) return;
		const result = await lease.append([{ recordType: "session_info", name }]);
		this.updated(result.metadata);
	}

	private updated(metadata: SessionMetadata): SessionMetadata {
		// Every store operation but append and reads writes a deferred session out.
		this.unwritten.delete(metadata.id);
		this.events.emit({ type: "session.updated", sessionId: metadata.id, metadata });
		return metadata;
	}

	private resolve(name: string): ResolvedModel {
		return (this.options.resolveModel ?? resolveModel)(name);
	}

	/** A model's context window; undefined for a model this runtime cannot resolve (e.g. an imported session's). */
	private windowOf(name: string): number | undefined {
		try {
			return this.resolve(name).model.contextWindow;
		} catch {
			return undefined;
		}
	}

	private leaseWaitMs(): number {
		return this.options.leaseWaitMs ?? 5 * 60_000;
	}
}
