import type { ListOptions, SessionMetadata, SessionStore } from "@agent/session-format/reading";

/** Every session matching `options`, page by page (up to `limit` when given). */
export async function listSessions(store: SessionStore, options: ListOptions): Promise<SessionMetadata[]> {
	const out: SessionMetadata[] = [];
	let cursor: string | undefined;
	do {
		const remaining = options.limit === undefined ? undefined : options.limit - out.length;
		const page = await store.list({
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
