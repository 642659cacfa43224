import { AsyncLocalStorage } from "node:async_hooks";
import type {
	AppendResult,
	CreateSessionOptions,
	RecordInput,
	SessionLease,
	SessionRecord,
	SessionStore,
} from "@agent/session-format/reading";
import type {
	AgentInputItem,
	OpenAIResponsesCompactionArgs,
	OpenAIResponsesCompactionAwareSession,
	OpenAIResponsesCompactionResult,
	RunContext,
	RunContextAwareSession,
	SessionHistoryRewriteArgs,
	SessionHistoryRewriteAwareSession,
	SessionHistoryTransactionArgs,
	SessionHistoryTransactionAwareSession,
} from "@openai/agents-core";
import { historyChanged, invalidArgument } from "./errors.js";
import { type History, historyOf, rewriteRecords } from "./history.js";
import { itemRecords, itemsRecord } from "./item-records.js";
import { asStored, canonicalJson } from "./items-json.js";
import { type SummarizingCompaction, summarizingCompaction } from "./summarize.js";
import { checkTransaction, TransactionIndex, transactionRecord } from "./transactions.js";

export interface StoreSessionOptions {
	/** Any store: `createFileStore()` from @agent/session-fs, `openPgStore()` from @agent/session-pg. */
	store: SessionStore;
	/** An existing session to continue; without it, a session is created on the first write (or getSessionId()). */
	sessionId?: string;
	/** How the session is created when there is no sessionId: name, model, identity key... */
	create?: CreateSessionOptions;
	/** How long a write waits for another writer's lease, in ms (default: the store's). */
	waitMs?: number;
	/** Our summarizing compaction, run by the SDK after each turn when the context needs it. */
	compaction?: SummarizingCompaction;
}

/** Where a run's history read left the session: its writes must find it there. */
interface Seen {
	lastSeq: number;
	leafSeq: number | null;
}

const OPENAI_SUMMARY =
	"The OpenAI Responses API compacted the conversation before this point; its summary is the encrypted compaction item kept in this session's items.";

/**
 * A Session of the OpenAI Agents SDK over any agent-sessions store. The SDK's items are kept
 * verbatim (getItems gives back exactly what was added) and mapped to our messages, so the CLI,
 * the web page, search, export and compaction see the conversation. Nothing is ever deleted:
 * popItem and clearSession move the session's leaf, and the log keeps the rest on a branch.
 */
export class StoreSession
	implements
		RunContextAwareSession<unknown>,
		SessionHistoryTransactionAwareSession,
		SessionHistoryRewriteAwareSession,
		OpenAIResponsesCompactionAwareSession
{
	readonly acceptsRunContext = true as const;
	private readonly store: SessionStore;
	private readonly options: StoreSessionOptions;
	private id: Promise<string> | undefined;
	private readonly held = new AsyncLocalStorage<SessionLease>();
	private readonly seen = new WeakMap<object, Seen>();
	private transactions: TransactionIndex | undefined;

	constructor(options: StoreSessionOptions) {
		if (!options?.store) throw invalidArgument("new StoreSession({ store }) needs a store, e.g. createFileStore()");
		this.store = options.store;
		this.options = options;
		if (options.sessionId !== undefined) this.id = Promise.resolve(options.sessionId);
	}

	/** The session's id; creates the session (with `create`) when it has none yet. */
	getSessionId(): Promise<string> {
		if (!this.id) {
			const created = this.store.create(this.options.create).then((metadata) => metadata.id);
			this.id = created;
			created.catch(() => {
				if (this.id === created) this.id = undefined;
			});
		}
		return this.id;
	}

	/** The latest `limit` items (all without a limit), oldest first, exactly as they were added. */
	async getItems(limit?: number, runContext?: RunContext<unknown>): Promise<AgentInputItem[]> {
		const { history, seen } = await this.read();
		if (runContext) this.seen.set(runContext, seen);
		if (limit === undefined) return history.items;
		if (limit <= 0) return [];
		return history.items.slice(Math.max(history.items.length - limit, 0));
	}

	/** Appends the items in one batch under the lease: each group as its message and its items. */
	async addItems(items: AgentInputItem[], runContext?: RunContext<unknown>): Promise<void> {
		if (!Array.isArray(items)) throw invalidArgument("addItems takes an array of items");
		if (items.length === 0) return;
		const records = itemRecords(items);
		await this.write(runContext, async (lease, id) => {
			await this.checkUnchanged(id, runContext);
			return lease.append(records);
		});
	}

	/** Moves the leaf back past the last item and returns it; the log keeps it on the abandoned branch. */
	async popItem(runContext?: RunContext<unknown>): Promise<AgentInputItem | undefined> {
		if (!this.id) return undefined;
		let popped: AgentInputItem | undefined;
		await this.write(runContext, async (lease, id) => {
			const history = historyOf((await this.store.open(id)).path);
			popped = history.items[history.items.length - 1];
			if (!popped) return undefined;
			return lease.append(rewriteRecords(history, history.items.length - 1, []));
		});
		return popped;
	}

	/** Starts an empty branch: getItems() is empty, and the log keeps everything. */
	async clearSession(runContext?: RunContext<unknown>): Promise<void> {
		if (!this.id) return;
		await this.write(runContext, async (lease, id) => {
			const history = historyOf((await this.store.open(id)).path);
			if (history.items.length === 0) return undefined;
			return lease.append([{ recordType: "leaf_change", parentSeq: null }]);
		});
	}

	/**
	 * Applies an append or a suffix replacement atomically (one batch under the lease), noting the
	 * operation id in the same batch: a retry, even from another process after a crash, finds it
	 * and changes nothing; the same id with another transaction fails, as does a suffix that no
	 * longer matches, and nothing is written.
	 */
	async applyHistoryTransaction(args: SessionHistoryTransactionArgs, runContext?: RunContext<unknown>): Promise<void> {
		const { transaction, data } = await checkTransaction(args);
		await this.write(runContext, async (lease, id) => {
			if (this.transactions === undefined) this.transactions = new TransactionIndex(this.store, id);
			const applied = await this.transactions.lookup(data.operationId);
			if (applied === data.fingerprint) return undefined;
			if (applied !== undefined) {
				throw invalidArgument(
					`history operation ${JSON.stringify(data.operationId)} was already applied with a different transaction; use a new operationId for a new change`,
				);
			}
			const note = transactionRecord(data);
			if (transaction.type === "append_items") {
				await this.checkUnchanged(id, runContext);
				return lease.append([note, ...itemRecords(transaction.items)]);
			}
			const history = historyOf((await this.store.open(id)).path);
			const start = history.items.length - transaction.expectedSuffix.length;
			const actual = start < 0 ? undefined : history.items.slice(start);
			if (!actual || canonicalJson(actual) !== canonicalJson(transaction.expectedSuffix)) {
				throw invalidArgument(
					`history operation ${JSON.stringify(data.operationId)}: the session's last ${transaction.expectedSuffix.length} items no longer match the expected suffix; nothing was changed`,
				);
			}
			return lease.append([note, ...rewriteRecords(history, start, transaction.replacement)]);
		});
	}

	/** Applies the SDK's history mutations (a replaced function call): the changed part is written again on a new branch. */
	async applyHistoryMutations(args: SessionHistoryRewriteArgs): Promise<void> {
		if (!args?.mutations?.length) return;
		const { applySessionHistoryMutations } = await import("@openai/agents-core");
		await this.write(undefined, async (lease, id) => {
			const history = historyOf((await this.store.open(id)).path);
			const next = asStored(applySessionHistoryMutations(history.items, args.mutations));
			let same = 0;
			while (
				same < next.length &&
				same < history.items.length &&
				canonicalJson(next[same]) === canonicalJson(history.items[same])
			) {
				same++;
			}
			if (same === next.length && same === history.items.length) return undefined;
			return lease.append(rewriteRecords(history, same, next.slice(same)));
		});
	}

	/**
	 * Replaces the history with the SDK's compaction: our compaction record (the old items stay in
	 * the log, and the context shows the summary), then the compaction item and what it retained.
	 */
	async replaceHistoryWithCompaction(items: AgentInputItem[], runContext?: RunContext<unknown>): Promise<void> {
		const [first, ...rest] = items;
		await this.write(runContext, async (lease, id) => {
			const opened = await this.store.open(id);
			if ((first as { type?: string } | undefined)?.type !== "compaction") {
				return lease.append(rewriteRecords(historyOf(opened.path), 0, items));
			}
			const seq = (await this.store.metadata(id)).lastSeq + 1;
			const compaction: RecordInput = {
				recordType: "compaction",
				seq,
				firstKeptSeq: seq,
				summary: OPENAI_SUMMARY,
				tokensBefore: opened.context.estimatedTokens,
				readFiles: [],
				modifiedFiles: [],
			};
			return lease.append([compaction, itemsRecord([first as AgentInputItem], "summary"), ...itemRecords(rest)]);
		});
	}

	/**
	 * Compacts with our summarizer (the `compaction` option) when the context needs it, or now with
	 * `force`; resolves with the compaction record, or undefined when nothing was compacted.
	 */
	compact(options: { force?: boolean } = {}): Promise<SessionRecord | undefined> {
		return this.summarize(options.force === true, undefined);
	}

	/** The SDK's hook after each turn: our summarizing compaction, when configured (no OpenAI call). */
	async runCompaction(
		args?: OpenAIResponsesCompactionArgs,
		runContext?: RunContext<unknown>,
	): Promise<OpenAIResponsesCompactionResult | null> {
		if (this.options.compaction) await this.summarize(args?.force === true, runContext);
		return null;
	}

	private async summarize(
		force: boolean,
		runContext: RunContext<unknown> | undefined,
	): Promise<SessionRecord | undefined> {
		const summarizer = this.options.compaction;
		if (!summarizer) {
			throw invalidArgument(
				"compact() needs the compaction option: new StoreSession({ store, compaction: { model } })",
			);
		}
		if (!this.id) return undefined;
		const result = await this.write(runContext, async (lease, id) => {
			const record = await summarizingCompaction(this.store, id, summarizer, force);
			return record ? lease.append([record]) : undefined;
		});
		return result?.records[0];
	}

	/** Items compared by the runner as getItems gives them back (JSON: no undefined fields). */
	prepareHistoryItemsForPersistenceComparison(items: AgentInputItem[]): AgentInputItem[] {
		return asStored(items);
	}

	/**
	 * Runs `work` holding the session's lease: every history operation inside it (a whole
	 * `run(agent, input, { session })`) goes through that lease, so runs on this session from
	 * any process take turns instead of interleaving (the next waits up to waitMs, then fails
	 * with SESSION_LOCKED).
	 */
	async withLease<T>(work: () => Promise<T>): Promise<T> {
		if (this.held.getStore()) return work();
		const id = await this.getSessionId();
		const lease = await this.store.lease(id, this.leaseOptions());
		try {
			return await this.held.run(lease, work);
		} finally {
			await lease.release();
		}
	}

	private async read(): Promise<{ history: History; seen: Seen }> {
		if (!this.id) return { history: { groups: [], items: [] }, seen: { lastSeq: 0, leafSeq: null } };
		const opened = await this.store.open(await this.id);
		const seen = { lastSeq: opened.metadata.lastSeq, leafSeq: opened.context.leafSeq };
		return { history: historyOf(opened.path), seen };
	}

	/** One write under the lease (the held one inside withLease); the run's view moves with it. */
	private async write(
		runContext: RunContext<unknown> | undefined,
		work: (lease: SessionLease, id: string) => Promise<AppendResult | undefined>,
	): Promise<AppendResult | undefined> {
		const id = await this.getSessionId();
		const held = this.held.getStore();
		const lease = held ?? (await this.store.lease(id, this.leaseOptions()));
		try {
			const result = await work(lease, id);
			if (result && runContext) this.seen.set(runContext, seenAfter(result));
			return result;
		} finally {
			if (!held) await lease.release();
		}
	}

	/** Under the lease: fails when another writer moved the leaf since this run read the history. */
	private async checkUnchanged(id: string, runContext: RunContext<unknown> | undefined): Promise<void> {
		const seen = runContext ? this.seen.get(runContext) : undefined;
		if (!seen) return;
		const metadata = await this.store.metadata(id);
		if (metadata.lastSeq === seen.lastSeq) return;
		const { context } = await this.store.open(id);
		if (context.leafSeq !== seen.leafSeq) throw historyChanged(id, seen.leafSeq, context.leafSeq);
	}

	private leaseOptions(): { waitMs?: number } {
		return this.options.waitMs === undefined ? {} : { waitMs: this.options.waitMs };
	}
}

function seenAfter(result: AppendResult): Seen {
	const last = result.records[result.records.length - 1] as SessionRecord;
	const leafSeq = last.recordType === "leaf_change" ? (last.parentSeq ?? null) : last.seq;
	return { lastSeq: result.metadata.lastSeq, leafSeq };
}
