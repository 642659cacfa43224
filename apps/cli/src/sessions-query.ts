import {
	type ListOptions,
	type SessionMetadata,
	type SessionStats,
	type SessionStore,
	summarizeSessions,
} from "@agent/session-format/reading";

/** Every session matching `options`, page by page (up to `limit` when given). */
export function listSessions(store: SessionStore, options: ListOptions): Promise<SessionMetadata[]> {
	return allPages((page) => store.list(page), options);
}

/**
 * listSessions with each session as UTF-8 JSON, from a store that keeps it (the file store: no
 * parsing and printing of every session again); undefined from one that does not.
 */
export function listSessionsAsJson(store: SessionStore, options: ListOptions): Promise<Uint8Array[]> | undefined {
	const listAsJson = store.listAsJson?.bind(store);
	return listAsJson ? allPages(listAsJson, options) : undefined;
}

/** The `stats` of the whole store (archived sessions included): the store's own sum when it keeps one. */
export async function storeStats(store: SessionStore): Promise<SessionStats> {
	if (store.summarize) return store.summarize();
	return summarizeSessions(await listSessions(store, { archived: true }));
}

async function allPages<T>(
	list: (options: ListOptions) => Promise<{ sessions: T[]; nextCursor?: string }>,
	options: ListOptions,
): Promise<T[]> {
	const out: T[] = [];
	let cursor: string | undefined;
	do {
		const remaining = options.limit === undefined ? undefined : options.limit - out.length;
		const page = await list({
			...options,
			...(remaining === undefined ? {} : { limit: remaining }),
			...(cursor === undefined ? {} : { cursor }),
		});
		out.push(...page.sessions);
		cursor = page.nextCursor;
		if (page.sessions.length === 0) break;
	} while (cursor !== undefined && (options.limit === undefined || out.length < options.limit));
	return out;
}
