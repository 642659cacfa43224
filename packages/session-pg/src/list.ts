import type { ListOptions, ListPage, SessionMetadata } from "@agent/session-format";
import { invalidArgument } from "./errors.js";
import type { Db } from "./rows.js";
import { rebuildStale, sortKey } from "./session-rows.js";

interface Cursor {
	t: number;
	id: string;
}

/** The cursor format of the file store (newest lastMessageAt first, then id), so pages read alike. */
function encodeCursor(metadata: SessionMetadata): string {
	return Buffer.from(JSON.stringify({ t: sortKey(metadata), id: metadata.id } satisfies Cursor)).toString("base64url");
}

function decodeCursor(cursor: string): Cursor {
	try {
		const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Partial<Cursor>;
		if (typeof value.t === "number" && typeof value.id === "string") return { t: value.t, id: value.id };
	} catch {
		// reported below
	}
	throw invalidArgument(
		`${JSON.stringify(String(cursor).slice(0, 40))} is not a cursor this store made; pass the nextCursor of a previous page`,
	);
}

/** `text` matched literally by ILIKE (its % _ and \ escaped). */
function likePattern(text: string): string {
	return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One page of the listing as one indexed query (agent_sessions_listing, the identity / cwd
 * index, or for a search the trigram indexes where pg_trgm is available): filters, newest lastMessageAt first, keyset pagination — the cost follows the page, not
 * the number of sessions. Sessions whose cache was dropped are rebuilt first (usually none).
 */
export async function listPage(db: Db, options: ListOptions): Promise<ListPage> {
	const limit = options.limit;
	if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
		throw invalidArgument(`limit must be a whole number >= 1, got ${limit}`);
	}
	await rebuildStale(db);
	const where: string[] = [];
	const params: unknown[] = [];
	const param = (value: unknown) => {
		params.push(value);
		return `$${params.length}`;
	};
	const archived = options.archived ?? false;
	if (archived === false) where.push("archived = false");
	else if (archived === "only") where.push("archived = true");
	else where.push("archived IN (false, true)");
	if (options.source !== undefined) where.push(`source = ${param(options.source)}`);
	if (options.identityKey !== undefined) where.push(`identity_key = ${param(options.identityKey)}`);
	if (options.cwd !== undefined) where.push(`cwd = ${param(options.cwd)}`);
	if (options.search !== undefined && options.search.length > 0) {
		const pattern = param(likePattern(options.search));
		// Ids are letters and digits: a needle with anything else can only be in a name.
		const couldBeId = /^[0-9a-z]+$/i.test(options.search);
		where.push(couldBeId ? `(name ILIKE ${pattern} OR id ILIKE ${pattern})` : `name ILIKE ${pattern}`);
	}
	if (options.cursor !== undefined) {
		const after = decodeCursor(options.cursor);
		where.push(`(sort_ms, id) < (${param(after.t)}, ${param(after.id)})`);
	}
	const limitSql = limit === undefined ? "" : ` LIMIT ${param(limit + 1)}`;
	const { rows } = await db.query<{ metadata: SessionMetadata }>(
		`SELECT metadata FROM agent_sessions WHERE ${where.join(" AND ")} ORDER BY sort_ms DESC, id DESC${limitSql}`,
		params,
	);
	const sessions = rows.map((row) => row.metadata);
	if (limit === undefined || sessions.length <= limit) return { sessions };
	const page = sessions.slice(0, limit);
	return { sessions: page, nextCursor: encodeCursor(page[page.length - 1] as SessionMetadata) };
}
