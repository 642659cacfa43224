import {
	isAgentSessionError,
	type ListOptions,
	type SessionMetadata,
	type SessionStore,
} from "@agent/session-format/reading";

/**
 * Retention: sessions archived longer than a given age are deleted for good (`agent-sessions
 * prune`, and config.yaml's `retention:` on the server's schedule). Archiving only hides a
 * session; this is what removes it. The archive time is the log's: the `archive_change` record
 * that archived it (`archivedAt` of the metadata, derived from the log), so unarchiving and
 * archiving again starts the clock again.
 */

export interface PruneOptions {
	/** Delete sessions archived at least this long ago, in ms. */
	olderThanMs: number;
	/** Report what would be deleted, delete nothing. */
	dryRun?: boolean;
	/** Now (tests); default the clock. */
	now?: Date;
	/**
	 * Deletes one session; default the store's delete. The runtime passes its own, which waits for
	 * the session's queued turns and tells its listeners.
	 */
	remove?: (sessionId: string) => Promise<unknown>;
	signal?: AbortSignal;
}

/** A session the rule named (deleted, or with dryRun to be deleted). */
export interface PrunedSession {
	id: string;
	name?: string;
	archivedAt: string;
	lastMessageAt: string;
	messageCount: number;
}

export interface PruneReport {
	/** Sessions archived before this time were deleted. */
	cutoff: string;
	dryRun: boolean;
	/** What was deleted (with dryRun: what would be). */
	sessions: PrunedSession[];
	/** Sessions that could not be deleted, with why (the store was unreachable...). */
	failed: Array<{ id: string; message: string }>;
}

const PAGE = 500;

export async function pruneArchived(store: SessionStore, options: PruneOptions): Promise<PruneReport> {
	if (!Number.isFinite(options.olderThanMs) || options.olderThanMs < 0) {
		throw new RangeError(`@agent/session: olderThanMs must be a number of ms >= 0, got ${options.olderThanMs}`);
	}
	const cutoffMs = (options.now ?? new Date()).getTime() - options.olderThanMs;
	const report: PruneReport = {
		cutoff: new Date(cutoffMs).toISOString(),
		dryRun: options.dryRun === true,
		sessions: [],
		failed: [],
	};
	const remove = options.remove ?? ((id: string) => store.delete(id));
	for (const listed of await archivedBefore(store, cutoffMs)) {
		options.signal?.throwIfAborted();
		try {
			// Checked again against the log just before the delete: the listing may be older than a
			// change made since (unarchived by a user, deleted by another instance's prune).
			const fresh = await store.metadata(listed.id);
			if (!archivedBeforeCutoff(fresh, cutoffMs)) continue;
			if (!report.dryRun) await remove(fresh.id);
			report.sessions.push(describe(fresh));
		} catch (error) {
			if (isAgentSessionError(error, "SESSION_NOT_FOUND")) continue;
			report.failed.push({ id: listed.id, message: (error as Error).message });
		}
	}
	return report;
}

/** The archived sessions whose archive time is before the cutoff, every page of the listing. */
async function archivedBefore(store: SessionStore, cutoffMs: number): Promise<SessionMetadata[]> {
	const found: SessionMetadata[] = [];
	let cursor: string | undefined;
	do {
		const options: ListOptions = { archived: "only", limit: PAGE, ...(cursor ? { cursor } : {}) };
		const page = await store.list(options);
		found.push(...page.sessions.filter((session) => archivedBeforeCutoff(session, cutoffMs)));
		cursor = page.sessions.length > 0 ? page.nextCursor : undefined;
	} while (cursor !== undefined);
	return found;
}

function archivedBeforeCutoff(session: SessionMetadata, cutoffMs: number): boolean {
	if (session.archivedAt === undefined) return false;
	const archived = Date.parse(session.archivedAt);
	return Number.isFinite(archived) && archived < cutoffMs;
}

function describe(session: SessionMetadata): PrunedSession {
	return {
		id: session.id,
		...(session.name !== undefined ? { name: session.name } : {}),
		archivedAt: session.archivedAt as string,
		lastMessageAt: session.lastMessageAt,
		messageCount: session.messageCount,
	};
}
