import {
	AgentSessionError,
	type ContentBlock,
	type CreateSessionOptions,
	type ListOptions,
	type ListPage,
	type OpenedSession,
	type OpenOptions,
	type SessionMetadata,
	type SessionRecord,
	type SessionStore,
	type TurnRecord,
} from "@agent/session-format/reading";
import { resolveHome } from "@agent/session-fs";
import { type AgentConfig, resolveConfig } from "./config.js";
import { loadConfig } from "./config-load.js";
import { type SessionEventListener, SessionEvents } from "./events.js";
import { KeyedSerial } from "./keyed-serial.js";
import { modelContextOf } from "./model-context-of.js";
import { canonicalModelName } from "./model-names.js";
import { ModelResolver } from "./model-resolver.js";
import type { CompactionPreview, PlanCompactionOptions } from "./plan-compaction.js";
import type { ModelContext } from "./pruned-context.js";
import type { RuntimeMachinery } from "./runtime-machinery.js";
import type {
	AgentSessionsOptions,
	BranchOptions,
	CompactOptions,
	IdentityTurn,
	QueuedTurn,
	RuntimeCore,
	SendOptions,
	TurnResult,
} from "./runtime-options.js";
import { chooseStoreLocation, openStoreAt } from "./store-url.js";
import { type ToolExecution, toolExecutions } from "./tool-log.js";
import { TurnControls } from "./turn-controls.js";
import { TurnIntake } from "./turn-intake.js";
import { TurnQueue } from "./turn-queue.js";

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
	/** Deferred sessions this runtime created that are not on disk yet (no assistant message so far). */
	private readonly unwritten = new Set<string>();
	/** Per identity key: the lookup-or-create in flight, so two sends never create two sessions. */
	private readonly identityLookups = new KeyedSerial();
	private readonly core: RuntimeCore;
	private machineryLoaded: Promise<RuntimeMachinery> | undefined;
	private readonly models: ModelResolver;
	private readonly intake: TurnIntake;
	/** Whether close() closes the store: the runtime opened it (from home or storeUrl). */
	private readonly ownsStore: boolean;
	/** What close() closes besides the store (store follows). */
	private readonly closables = new Set<{ close(): Promise<void> }>();
	private closing: Promise<void> | undefined;

	private constructor(store: SessionStore, config: AgentConfig, options: AgentSessionsOptions, models: ModelResolver) {
		this.store = store;
		this.config = config;
		this.events = new SessionEvents((error) => console.error("@agent/session: an event listener threw:", error));
		this.models = models;
		this.core = {
			store,
			config,
			events: this.events,
			options,
			unwritten: this.unwritten,
			resolve: (name) => models.resolve(name),
			defaultModel: () => this.defaultModel(),
			leaseWaitMs: () => options.leaseWaitMs ?? 5 * 60_000,
			turnTimeoutMs: () => options.turnTimeoutMs ?? config.turnTimeoutMs,
			modelCallTimeoutMs: () => options.modelCallTimeoutMs ?? config.modelCallTimeoutMs,
			updated: (metadata) => this.updated(metadata),
		};
		this.intake = new TurnIntake(this.core, models, this.queue, this.controls, () => this.machinery());
		this.ownsStore = options.store === undefined;
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
		const models = new ModelResolver(options.resolveModel);
		await models.ready();
		return new AgentSessions(store, config, options, models);
	}

	subscribe(listener: SessionEventListener, options: { sessionId?: string } = {}): () => void {
		return this.events.subscribe(listener, options);
	}

	async create(options: CreateSessionOptions = {}): Promise<SessionMetadata> {
		this.refuseIfClosed();
		const model = canonicalModelName(options.model ?? this.defaultModel());
		// Before anything is written: an unknown model, or one without its API key, fails here.
		await this.models.check(model);
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
		return this.models.defaultModel(this.config.defaultModel);
	}

	/** Queues a turn and returns at once with its position; `done` settles when the turn ends. */
	enqueue(sessionId: string, content: string | ContentBlock[], options: SendOptions = {}): QueuedTurn {
		this.refuseIfClosed();
		return this.intake.enqueue(sessionId, content, options);
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
		this.refuseIfClosed();
		if (options.model !== undefined) await this.models.check(options.model);
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
			windowOf: (model: string) => this.models.windowOf(model),
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
		const { compactions, previewCompaction } = await this.machinery();
		const summarizer = await compactions.manualSummarizer(sessionId, options.model);
		return previewCompaction(this.store, sessionId, summarizer, compactions.settingsFor(options), options);
	}

	/** Compacts a session now (trigger "manual"); resolves with the compaction record, or undefined if nothing to compact. */
	async compact(sessionId: string, options: CompactOptions = {}): Promise<SessionRecord | undefined> {
		this.refuseIfClosed();
		return this.queue.enqueue(sessionId, async () => {
			const { compactions } = await this.machinery();
			const model = await compactions.manualSummarizer(sessionId, options.model);
			const lease = await this.store.lease(sessionId, { waitMs: this.core.leaseWaitMs() });
			this.unwritten.delete(sessionId);
			try {
				return await compactions.underLease(lease, model, "manual", options);
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
			const { compactions, summaryOfBranchLeft } = await this.machinery();
			const summarizer = await compactions.manualSummarizer(sessionId, options.model);
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

	/**
	 * Closes the runtime, so that a process can exit by itself: new turns, sessions and compactions
	 * are refused; the turns queued or running end first (each at its deadline at the latest;
	 * `cancel` stops one sooner), which releases their leases; then the store follows opened on the
	 * runtime stop, and the store closes when the runtime opened it (from `home` or `storeUrl`; a
	 * store passed as `store` stays open, its owner closes it). Calling it again waits for the same.
	 */
	close(): Promise<void> {
		this.closing ??= this.release();
		return this.closing;
	}

	/** `await using sessions = await AgentSessions.open()` closes the runtime at the end of the scope. */
	[Symbol.asyncDispose](): Promise<void> {
		return this.close();
	}

	/**
	 * Has close() close `resource` too (before the store). For what is opened on the runtime, such
	 * as followStoreChanges.
	 * @internal
	 */
	closeWith(resource: { close(): Promise<void> }): () => void {
		this.closables.add(resource);
		return () => this.closables.delete(resource);
	}

	private async release(): Promise<void> {
		await this.queue.idle();
		for (const resource of [...this.closables]) await resource.close().catch(() => undefined);
		this.closables.clear();
		if (this.ownsStore) await this.store.close?.();
	}

	private refuseIfClosed(): void {
		if (this.closing === undefined) return;
		throw new AgentSessionError(
			"INVALID_ARGUMENT",
			"@agent/session: this runtime is closed (close() was called); open another with AgentSessions.open() to go on",
		);
	}

	/** Waits for every queued turn to finish. */
	idle(): Promise<void> {
		return this.queue.idle();
	}

	/** Turns queued or running for a session. */
	queueDepth(sessionId: string): number {
		return this.queue.depth(sessionId);
	}

	/** The turn and compaction code, loaded with the first turn or compaction (runtime-machinery.ts). */
	private machinery(): Promise<RuntimeMachinery> {
		this.machineryLoaded ??= import("./runtime-machinery.js").then(({ runtimeMachinery }) =>
			runtimeMachinery(this.core, this.controls),
		);
		return this.machineryLoaded;
	}

	private updated(metadata: SessionMetadata): SessionMetadata {
		// Every store operation but append and reads writes a deferred session out.
		this.unwritten.delete(metadata.id);
		this.events.emit({ type: "session.updated", sessionId: metadata.id, metadata });
		return metadata;
	}
}
