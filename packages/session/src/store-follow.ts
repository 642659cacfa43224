import type { StoreChange, StoreWatcher } from "@agent/session-format/reading";
import type { SessionEvent } from "./events.js";
import type { AgentSessions } from "./runtime.js";

/** A change waits this long before it is compared: this runtime's own events (and relayed ones) for it come first. */
const SETTLE_MS = 150;
/** At most this many new records are read and announced one by one; past it, only the session's update. */
const MAX_ANNOUNCED = 1000;
const DELETED = -1;

/** A running follow (followStoreChanges). */
export interface StoreFollow {
	close(): Promise<void>;
}

/**
 * Makes what other processes write to the store (`agent-sessions send` or `append` in a
 * terminal, another tool, a PostgreSQL client) show as this runtime's events, as if it had
 * written it: `session.created`, `session.updated`, `session.deleted`, and, for a session someone
 * subscribed to in particular (a page showing it), `record.appended` for each new record (in log
 * order). Its own writes, and what other instances' relays told already, are recognized by their
 * seqs and not told twice. Changes to one session that come together are told once, with the
 * latest metadata. Needs a store with `watch` (both built-in stores have it); without one it
 * does nothing. `close()` stops it; closing the runtime does too.
 */
export async function followStoreChanges(runtime: AgentSessions): Promise<StoreFollow> {
	const store = runtime.store;
	if (!store.watch) return { close: async () => {} };
	/** The last seq of each session as this runtime's events told it (DELETED once deleted). */
	const known = new Map<string, number>();
	const unsubscribe = runtime.subscribe((event) => learn(known, event));
	let closed = false;
	let telling: Promise<void> = Promise.resolve();

	const tell = async (change: StoreChange): Promise<void> => {
		const id = change.sessionId;
		const before = known.get(id);
		if (change.type === "deleted") {
			if (before !== DELETED) runtime.events.emit({ type: "session.deleted", sessionId: id });
			return;
		}
		const { metadata } = change;
		if (before !== undefined && before !== DELETED && metadata.lastSeq <= before) return;
		if (before === undefined || before === DELETED) {
			const type = change.created ? "session.created" : "session.updated";
			runtime.events.emit({ type, sessionId: id, metadata });
			return;
		}
		if (runtime.events.watched(id) && metadata.lastSeq - before <= MAX_ANNOUNCED) {
			for await (const record of store.readFrom(id, before + 1)) {
				if (record.seq > metadata.lastSeq || closed) break;
				// A record this version cannot read is not an event's; a reader sees the gap and reads the log.
				if (record.recordType === "opaque") continue;
				runtime.events.emit({ type: "record.appended", sessionId: id, record });
			}
		}
		runtime.events.emit({ type: "session.updated", sessionId: id, metadata });
	};

	// The latest change of each session not told yet: a burst of writes is told once.
	const waiting = new Map<string, StoreChange>();
	let timer: ReturnType<typeof setTimeout> | undefined;
	const flush = () => {
		timer = undefined;
		const changes = [...waiting.values()];
		waiting.clear();
		// One at a time, in the order reported: a session's records are told in log order.
		telling = telling
			.then(async () => {
				for (const change of changes) if (!closed) await tell(change).catch(() => undefined);
			})
			.catch(() => undefined);
	};
	const watcher: StoreWatcher = await store.watch((change) => {
		if (closed) return;
		const earlier = waiting.get(change.sessionId);
		// A creation stays one when later changes of the same burst come.
		const created = earlier?.type === "changed" && earlier.created === true;
		waiting.delete(change.sessionId);
		waiting.set(change.sessionId, change.type === "changed" && created ? { ...change, created } : change);
		timer ??= setTimeout(flush, SETTLE_MS);
	});

	const follow: StoreFollow = {
		async close() {
			if (closed) return;
			closed = true;
			forget();
			unsubscribe();
			clearTimeout(timer);
			await watcher.close();
			await telling;
		},
	};
	// Closing the runtime closes its follow: the store's watcher would keep the process alive.
	const forget = runtime.closeWith(follow);
	return follow;
}

/** What an event says about a session's last seq. */
function learn(known: Map<string, number>, event: SessionEvent): void {
	const raise = (seq: number) => {
		const was = known.get(event.sessionId);
		if (was === undefined || seq > was) known.set(event.sessionId, seq);
	};
	switch (event.type) {
		case "session.created":
		case "session.updated":
			raise(event.metadata.lastSeq);
			break;
		case "record.appended":
			raise(event.record.seq);
			break;
		case "session.deleted":
			known.set(event.sessionId, DELETED);
			break;
		default:
			break;
	}
}
