import type { RecordInput, SessionStore, StoredRecord } from "@agent/session-format/reading";
import { invalidArgument, isNotFound, isSeqConflict, storageFailure } from "./errors.js";
import type { RecordCache } from "./record-cache.js";
import { isThreadRecord } from "./record-data.js";
import { ThreadIndex } from "./thread-index.js";
import { recordWeight, type ThreadView } from "./thread-reader.js";
import { threadSessions } from "./thread-sessions.js";

interface ThreadState {
	readonly threadId: string;
	sessionId: string | undefined;
	index: ThreadIndex | undefined;
	/** True once the index has read the log, until another writer is seen. */
	synced: boolean;
	queue: Promise<void>;
	pending: number;
}

/** How often an append is planned again after another process wrote to the thread first. */
const MAX_ATTEMPTS = 50;

/**
 * The threads a checkpointer has open in this process: each thread's session and index, one
 * operation at a time per thread (in call order), the least recently used dropped past `keep`.
 *
 * Writes are optimistic: a batch carries the seqs its records must get, planned from the index,
 * and the store refuses it (under its lease) when another writer appended first; the index then
 * catches up from the log and the batch is planned again. So a write costs one append, and two
 * processes on one thread never interleave inside a batch or plan from a stale view.
 */
export class Threads {
	private readonly states = new Map<string, ThreadState>();

	constructor(
		readonly store: SessionStore,
		readonly cache: RecordCache,
		private readonly keep: number,
	) {}

	/** Runs `work` alone for this thread (in this process), after every earlier call for it. */
	exclusive<T>(threadId: string, work: (state: ThreadState) => Promise<T>): Promise<T> {
		let state = this.states.get(threadId);
		if (state) this.states.delete(threadId);
		else
			state = { threadId, sessionId: undefined, index: undefined, synced: false, queue: Promise.resolve(), pending: 0 };
		this.states.set(threadId, state);
		const held = state;
		held.pending++;
		const run = held.queue.then(() => work(held));
		held.queue = run.then(
			() => undefined,
			() => undefined,
		);
		return run.finally(() => {
			held.pending--;
			this.trim();
		});
	}

	/** The thread with an index that has read all of its log; undefined when it has no session (unless `create`). */
	async read(state: ThreadState, create = false): Promise<ThreadView | undefined> {
		for (let attempt = 0; attempt < 3; attempt++) {
			const view = await this.open(state, create);
			if (!view) return undefined;
			try {
				await this.catchUp(state, view);
				return this.viewOf(state);
			} catch (error) {
				if (!isNotFound(error)) throw error;
				this.forget(state);
			}
		}
		throw storageFailure(`the session of thread ${JSON.stringify(state.threadId)} keeps disappearing while it is read`);
	}

	/**
	 * Appends the batch `plan` makes (an empty one writes nothing), creating the thread's session if
	 * needed; plans again when another writer appended first. Returns the records as written.
	 */
	async append(state: ThreadState, plan: (view: ThreadView) => Promise<RecordInput[]>): Promise<StoredRecord[]> {
		for (let attempt = 1; ; attempt++) {
			const view = state.synced ? this.viewOf(state) : await this.read(state, true);
			if (!view) throw storageFailure(`could not create a session for thread ${JSON.stringify(state.threadId)}`);
			const records = await plan(view);
			if (records.length === 0) return [];
			try {
				const { records: written } = await this.store.append(view.sessionId, records);
				for (const record of written) {
					view.index.apply(record);
					this.cache.set(view.sessionId, record.seq, record, recordWeight(record));
				}
				return written;
			} catch (error) {
				if (attempt >= MAX_ATTEMPTS || !(isSeqConflict(error) || isNotFound(error))) throw error;
				if (isNotFound(error)) this.forget(state);
				else state.synced = false;
			}
		}
	}

	/** Deletes every session of the thread. */
	async delete(state: ThreadState): Promise<void> {
		for (const session of await threadSessions(this.store, state.threadId)) {
			await this.store.delete(session.id).catch((error: unknown) => {
				if (!isNotFound(error)) throw error;
			});
			this.cache.forget(session.id);
		}
		this.forget(state);
	}

	private async open(state: ThreadState, create: boolean): Promise<ThreadView | undefined> {
		if (state.sessionId === undefined) {
			const sessionId = await this.findSession(state.threadId, create);
			if (sessionId === undefined) return undefined;
			state.sessionId = sessionId;
			state.index = new ThreadIndex(sessionId);
			state.synced = false;
		}
		return this.viewOf(state);
	}

	private async findSession(threadId: string, create: boolean): Promise<string | undefined> {
		const existing = await threadSessions(this.store, threadId);
		if (existing[0] || !create) return existing[0]?.id;
		if (threadId.length > 1024) {
			throw invalidArgument(
				`a thread_id is at most 1024 characters long (it is the session's identity key), got ${threadId.length}`,
			);
		}
		const made = await this.store.create({ identityKey: threadId });
		const chosen = (await threadSessions(this.store, threadId))[0]?.id ?? made.id;
		if (chosen !== made.id) await this.store.delete(made.id).catch(() => undefined);
		return chosen;
	}

	/** Reads what was appended since the index last looked (everything, the first time). */
	private async catchUp(state: ThreadState, view: ThreadView): Promise<void> {
		const { lastSeq } = await this.store.metadata(view.sessionId);
		let index = view.index;
		if (lastSeq < index.lastSeq) {
			// Shorter than what this process read: not the same log any more. Start over.
			this.cache.forget(view.sessionId);
			index = state.index = new ThreadIndex(view.sessionId);
		}
		if (lastSeq > index.lastSeq) {
			for await (const record of this.store.readFrom(view.sessionId, index.lastSeq + 1)) {
				index.apply(record);
				// Kept while the cache has room: the newest checkpoints' values are then read once, here.
				if (isThreadRecord(record)) this.cache.set(view.sessionId, record.seq, record, recordWeight(record));
			}
			// Lines at the end that could not be read still hold their seqs.
			if (lastSeq > index.lastSeq) index.lastSeq = lastSeq;
		}
		state.synced = true;
	}

	private viewOf(state: ThreadState): ThreadView {
		return {
			threadId: state.threadId,
			sessionId: state.sessionId as string,
			index: state.index as ThreadIndex,
			store: this.store,
			cache: this.cache,
		};
	}

	private forget(state: ThreadState): void {
		if (state.sessionId !== undefined) this.cache.forget(state.sessionId);
		state.sessionId = undefined;
		state.index = undefined;
		state.synced = false;
	}

	private trim(): void {
		for (const [threadId, state] of this.states) {
			if (this.states.size <= this.keep) return;
			if (state.pending === 0) this.states.delete(threadId);
		}
	}
}

export type { ThreadState };
