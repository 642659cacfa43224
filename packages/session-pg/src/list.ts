import {
	decodeListCursor,
	encodeListCursor,
	type ListOptions,
	type ListPage,
	type SessionMetadata,
} from "@agent/session-format";
import { invalidArgument } from "./errors.js";
import type { Db } from "./rows.js";
import { rebuildStale } from "./session-rows.js";

/** `text` matched literally by ILIKE (its % _ and \ escaped). */
function likePattern(text: string): string {
	return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `column = value` as the hash indexes of migration 5 answer it: by md5, then the value itself. */
export function hashedEquals(column: string, placeholder: string): string {
	return `md5(${column}) = md5(${placeholder}::text) AND ${column} = ${placeholder}`;
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
	if (options.identityKey !== undefined) where.push(hashedEquals("identity_key", param(options.identityKey)));
	if (options.cwd !== undefined) where.push(hashedEquals("cwd", param(options.cwd)));
	if (options.search !== undefined && options.search.length > 0) {
		const pattern = param(likePattern(options.search));
		// Ids are letters and digits: a needle with anything else can only be in a name.
		const couldBeId = /^[0-9a-z]+$/i.test(options.search);
		where.push(couldBeId ? `(name ILIKE ${pattern} OR id ILIKE ${pattern})` : `name ILIKE ${pattern}`);
	}
	if (options.cursor !== undefined) {
		const after = decodeListCursor(options.cursor);
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
	return { sessions: page, nextCursor: encodeListCursor(page[page.length - 1] as SessionMetadata) };
}
