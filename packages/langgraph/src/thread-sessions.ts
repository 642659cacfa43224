import type { ListOptions, SessionMetadata, SessionStore } from "@agent/session-format/reading";
import { isThreadRecord } from "./record-data.js";

/**
 * Which sessions hold LangGraph threads. A thread is the session whose identity key is its
 * thread_id and whose log starts with a record of this package (an empty session counts: it was
 * just created for the thread). Should two processes create a thread's session at the same
 * moment, both settle on the oldest (the smallest ULID), and the other is deleted while empty.
 */
export async function threadSessions(store: SessionStore, threadId: string): Promise<SessionMetadata[]> {
	const found: SessionMetadata[] = [];
	for await (const session of listed(store, { identityKey: threadId, archived: true })) {
		if (session.identityKey === threadId && (await holdsThread(store, session))) found.push(session);
	}
	return found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Every thread of the store: its thread_id and its session (the oldest, should there be two). */
export async function allThreads(store: SessionStore): Promise<Map<string, string>> {
	const threads = new Map<string, string>();
	for await (const session of listed(store, { archived: true })) {
		const threadId = session.identityKey;
		if (threadId === undefined || !(await holdsThread(store, session))) continue;
		const known = threads.get(threadId);
		if (known === undefined || session.id < known) threads.set(threadId, session.id);
	}
	return threads;
}

async function holdsThread(store: SessionStore, session: SessionMetadata): Promise<boolean> {
	if (session.lastSeq === 0) return true;
	for await (const record of store.read(session.id)) return isThreadRecord(record);
	return false;
}

async function* listed(store: SessionStore, options: ListOptions): AsyncGenerator<SessionMetadata> {
	let cursor: string | undefined;
	do {
		const page = await store.list(cursor === undefined ? options : { ...options, cursor });
		yield* page.sessions;
		cursor = page.nextCursor;
	} while (cursor !== undefined);
}
