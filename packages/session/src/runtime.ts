import { randomBytes } from "node:crypto";
import {
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
	textBlock,
} from "@agent/session-format/reading";
import { resolveHome } from "@agent/session-fs";
import { checkUserContent, noteAcceptedTurn } from "./accepted-turns.js";
import { type AgentConfig, resolveConfig } from "./config.js";
import { loadConfig } from "./config-load.js";
import { checkParentSeqShape } from "./continue-from.js";
import { type SessionEventListener, SessionEvents } from "./events.js";
import { KeyedSerial } from "./keyed-serial.js";
import { modelContextOf } from "./model-context.js";
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
import { checkThinkingLevel } from "./thinking-levels.js";
import { type ToolExecution, toolExecutions } from "./tool-log.js";
import { TurnControls } from "./turn-controls.js";
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
	private turnCounter = 0;
	/** Deferred sessions this runtime created that are not on disk yet (no assistant message so far). */
	private readonly unwritten = new Set<string>();
	/** Per identity key: the lookup-or-create in flight, so two sends never create two sessions. */
	private readonly identityLookups = new KeyedSerial();
	private readonly core: RuntimeCore;
	private machineryLoaded: Promise<RuntimeMachinery> | undefined;
	private readonly models: ModelResolver;

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
			updated: (metadata) => this.updated(metadata),
		};
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
		// A bad thinking level or parentSeq fails here, at once, rather than when the turn's time comes.
		if (options.thinkingLevel !== undefined) checkThinkingLevel(options.thinkingLevel);
		if (options.parentSeq !== undefined) checkParentSeqShape(options.parentSeq);
		const blocks = typeof content === "string" ? [textBlock(content)] : content;
		checkUserContent(blocks);
		// Unique across processes too: instances sharing a store key their turn journals by it.
		const turnId = `${Date.now().toString(36)}-${(++this.turnCounter).toString(36)}-${randomBytes(3).toString("hex")}`;
		const signal = this.controls.add(sessionId, turnId, options.signal);
		// A model that cannot run (unknown, no API key) is refused before the turn is accepted.
		const model = options.model;
		const noted =
			model === undefined
				? this.noteAccepted(sessionId, turnId, blocks)
				: this.models.check(model).then(() => this.noteAccepted(sessionId, turnId, blocks));
		const accepted = noted.then(() => undefined);
		accepted.catch(() => {});
		let position = 0;
		const done = this.queue.enqueue(
			sessionId,
			async () =>
				(await this.machinery()).turns.execute(sessionId, turnId, blocks, { ...options, signal }, await noted),
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
	 * sender), creating one tagged with the key when it has none (or only archived ones).
	 */
	async enqueueForIdentity(
		identityKey: string,
		content: string | ContentBlock[],
		options: SendOptions & { create?: Omit<CreateSessionOptions, "identityKey"> } = {},
	): Promise<IdentityTurn> {
		if (options.model !== undefined) await this.models.check(options.model);
		const { create, ...sendOptions } = options;
		const { sessionId, created } = await this.sessionForIdentity(identityKey, {
			...create,
			...(options.model !== undefined ? { model: options.model } : {}),
		});
		return { ...this.enqueue(sessionId, content, sendOptions), sessionId, created };
	}

	/**
	 * The latest session of an identity (not archived), or a new one tagged with the key (created
	 * with `create`). Lookups of one key run one at a time, so two sends never create two sessions.
	 */
	async sessionForIdentity(
		identityKey: string,
		create: Omit<CreateSessionOptions, "identityKey"> = {},
	): Promise<{ sessionId: string; created: boolean }> {
		return this.identityLookups.run(identityKey, async () => {
			const found = await this.store.findByIdentity(identityKey);
			if (found) return { sessionId: found.id, created: false };
			const metadata = await this.create({ ...create, identityKey });
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
