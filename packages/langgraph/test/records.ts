import type { SessionStore, StoredRecord } from "@agent/session-format";

export async function recordsOf(store: SessionStore, sessionId: string): Promise<StoredRecord[]> {
	const out: StoredRecord[] = [];
	for await (const record of store.read(sessionId)) out.push(record);
	return out;
}

/** The thread's session id (its identity key is the thread_id). */
export async function sessionOf(store: SessionStore, threadId: string): Promise<string> {
	const found = await store.findByIdentity(threadId);
	if (!found) throw new Error(`no session for thread ${threadId}`);
	return found.id;
}
