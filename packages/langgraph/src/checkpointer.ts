import type { SessionStore } from "@agent/session-format/reading";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
	BaseCheckpointSaver,
	type ChannelVersions,
	type Checkpoint,
	type CheckpointListOptions,
	type CheckpointMetadata,
	type CheckpointTuple,
	type PendingWrite,
	type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import { checkpointIdOf, namespaceOf, threadIdOf } from "./config.js";
import { encodeValue } from "./encoding.js";
import { invalidArgument } from "./errors.js";
import { type ListQuery, matches, metadataMatches, newestFirst } from "./list-filter.js";
import { type EncodedChannel, planPut, rememberArrays } from "./put-plan.js";
import { RecordCache } from "./record-cache.js";
import type { CheckpointEntry } from "./thread-index.js";
import type { ThreadView } from "./thread-reader.js";
import { allThreads } from "./thread-sessions.js";
import { Threads } from "./threads.js";
import { buildTuple, configOf, type TupleContext } from "./tuple.js";
import { encodeWrites, planWrites } from "./writes-plan.js";

export interface StoreCheckpointerOptions {
	/** Where threads live: any agent-sessions store (createFileStore(), openPgStore(), ...). */
	store: SessionStore;
	/** LangGraph's serializer for channel values, metadata and writes (default: its JsonPlusSerializer). */
	serde?: SerializerProtocol;
	/**
	 * The state channel whose LangChain messages are also written as message records, so that
	 * `agent-sessions context`, search and export show the conversation (default "messages";
	 * false: none).
	 */
	messagesChannel?: string | false;
	/** Bytes of recently read or written records kept in memory (default 32 MiB). */
	cacheBytes?: number;
	/** Threads whose index stays in memory between calls (default 64). */
	threadsInMemory?: number;
}

/**
 * A LangGraph checkpointer over an agent-sessions store. A thread is a session (found by its
 * identity key, the thread_id), and its checkpoints, their channel values (each version stored
 * once, an array as what it adds to the last version), and pending writes are records of that
 * session's append-only log; the conversation of the `messages` channel is also written as
 * message records. See the README for the layout and what it guarantees.
 */
export class StoreCheckpointer extends BaseCheckpointSaver {
	readonly store: SessionStore;
	private readonly threads: Threads;
	private readonly messagesChannel: string | false;

	constructor(options: StoreCheckpointerOptions) {
		super(options?.serde);
		if (typeof options?.store?.append !== "function" || typeof options.store.readFrom !== "function") {
			throw invalidArgument(
				"new StoreCheckpointer({ store }) needs a SessionStore, e.g. createFileStore() from @agent/session-fs or openPgStore() from @agent/session-pg",
			);
		}
		const channel = options.messagesChannel ?? "messages";
		if (channel !== false && (typeof channel !== "string" || channel === "")) {
			throw invalidArgument('messagesChannel must be the name of a state channel such as "messages", or false');
		}
		this.store = options.store;
		this.messagesChannel = channel;
		this.threads = new Threads(
			options.store,
			new RecordCache(positive(options.cacheBytes, "cacheBytes") ?? 32 * 1024 * 1024),
			positive(options.threadsInMemory, "threadsInMemory") ?? 64,
		);
	}

	async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
		const threadId = threadIdOf(config);
		if (threadId === undefined) return undefined;
		const ns = namespaceOf(config);
		const id = checkpointIdOf(config);
		return this.threads.exclusive(threadId, async (state) => {
			const view = await this.threads.read(state);
			const entry = id === undefined ? view?.index.newest(ns) : view?.index.checkpoint(ns, id);
			return view && entry ? buildTuple(view, entry, this.tupleContext()) : undefined;
		});
	}

	async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
		const { limit, before, filter } = options;
		const query: ListQuery = {
			ns: config?.configurable?.checkpoint_ns === undefined ? undefined : namespaceOf(config),
			id: checkpointIdOf(config),
			before: checkpointIdOf(before),
			filter,
		};
		const only = threadIdOf(config);
		const threadIds = only !== undefined ? [only] : [...(await allThreads(this.store)).keys()];
		const found: { threadId: string; entry: CheckpointEntry; sure: boolean }[] = [];
		for (const threadId of threadIds) {
			const entries = await this.threads.exclusive(threadId, async (state) => {
				const view = await this.threads.read(state);
				return view ? [...view.index.allCheckpoints()] : [];
			});
			for (const entry of entries) {
				const match = matches(entry, query);
				if (match !== false) found.push({ threadId, entry, sure: match === true });
			}
		}
		found.sort(newestFirst);
		let left = limit ?? Number.POSITIVE_INFINITY;
		for (const { threadId, entry, sure } of found) {
			if (left <= 0) return;
			const tuple = await this.threads.exclusive(threadId, async (state) => {
				const view = await this.threads.read(state);
				const current = view?.index.checkpoint(entry.ns, entry.id);
				return view && current ? buildTuple(view, current, this.tupleContext()) : undefined;
			});
			if (!tuple || (!sure && !metadataMatches(tuple.metadata, filter ?? {}))) continue;
			left--;
			yield tuple;
		}
	}

	async put(
		config: RunnableConfig,
		checkpoint: Checkpoint,
		metadata: CheckpointMetadata,
		newVersions: ChannelVersions,
	): Promise<RunnableConfig> {
		if (config?.configurable === undefined) {
			throw invalidArgument(
				'put needs config.configurable with a thread_id: { configurable: { thread_id: "my-thread" } }',
			);
		}
		const threadId = threadIdOf(config, "put") as string;
		const ns = namespaceOf(config);
		if (typeof checkpoint?.id !== "string" || checkpoint.id === "") {
			throw invalidArgument("put needs a checkpoint with an id (a uuid6, as LangGraph makes them)");
		}
		// Serialized now (LangGraph goes on with its channels), and queued now: a thread's operations
		// reach its log in the order LangGraph called them.
		const encoding = this.encodeCheckpoint(checkpoint, metadata, newVersions ?? {});
		encoding.catch(() => undefined);
		await this.threads.exclusive(threadId, async (state) => {
			const { encoded, metadata: encodedMetadata } = await encoding;
			const input = {
				ns,
				parentId: checkpointIdOf(config),
				checkpoint,
				metadata: encodedMetadata,
				newVersions: newVersions ?? {},
				encoded,
				encode: (channel: string) => this.encodeChannel(checkpoint, channel),
				messagesChannel: this.messagesChannel,
			};
			let done: { view: ThreadView; planned: Awaited<ReturnType<typeof planPut>> } | undefined;
			await this.threads.append(state, async (view) => {
				const planned = await planPut(view, input);
				done = { view, planned };
				return planned.records;
			});
			if (done) rememberArrays(done.view, done.planned);
		});
		return configOf(threadId, ns, checkpoint.id);
	}

	async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
		const threadId = threadIdOf(config, "putWrites") as string;
		const checkpointId = checkpointIdOf(config);
		if (checkpointId === undefined) {
			throw invalidArgument("putWrites needs config.configurable.checkpoint_id: the checkpoint the writes belong to");
		}
		if (typeof taskId !== "string") throw invalidArgument(`putWrites needs a task id string, got ${typeof taskId}`);
		const target = { ns: namespaceOf(config), checkpointId, taskId, taskPath };
		const encoding = encodeWrites(this.serde, writes ?? []);
		encoding.catch(() => undefined);
		await this.threads.exclusive(threadId, async (state) => {
			const encoded = await encoding;
			await this.threads.append(state, async (view) => planWrites(view, target, encoded));
		});
	}

	async deleteThread(threadId: string): Promise<void> {
		const id = threadIdOf({ configurable: { thread_id: threadId } }, "deleteThread") as string;
		await this.threads.exclusive(id, (state) => this.threads.delete(state));
	}

	private async encodeCheckpoint(checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions) {
		const encoded = new Map<string, EncodedChannel>();
		const channels = Object.keys(newVersions);
		const values = await Promise.all(channels.map((channel) => this.encodeChannel(checkpoint, channel)));
		channels.forEach((channel, i) => {
			const value = values[i];
			if (value) encoded.set(channel, value);
		});
		return { encoded, metadata: await encodeValue(this.serde, metadata) };
	}

	private async encodeChannel(checkpoint: Checkpoint, channel: string): Promise<EncodedChannel | undefined> {
		const values = checkpoint.channel_values ?? {};
		if (!Object.hasOwn(values, channel)) return undefined;
		const value = (values as Record<string, unknown>)[channel];
		if (!Array.isArray(value)) return { array: false, value: await encodeValue(this.serde, value) };
		return { array: true, items: await Promise.all(value.map((item) => encodeValue(this.serde, item))) };
	}

	private tupleContext(): TupleContext {
		return { serde: this.serde, nextVersion: (current) => this.getNextVersion(current) };
	}
}

function positive(value: number | undefined, name: string): number | undefined {
	if (value === undefined) return undefined;
	if (!Number.isInteger(value) || value < 1) throw invalidArgument(`${name} must be a whole number >= 1, got ${value}`);
	return value;
}
