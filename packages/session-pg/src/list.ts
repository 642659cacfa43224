import type { ListOptions, ListPage, SessionMetadata } from "@agent/session-format";
import { asciiRunOf, decodeListCursor, encodeListCursor, listSearchMatches } from "@agent/session-format/store-kit";
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

/** Rows read per batch while a name search pages through its candidates. */
const SEARCH_BATCH = 200;

interface ListRow {
	metadata: SessionMetadata;
	id: string;
	name: string | null;
	sort_ms: string;
}

/**
 * One page of the listing as one indexed query (agent_sessions_listing, the identity / cwd
 * index, or for a search the trigram indexes where pg_trgm is available): filters, newest
 * lastMessageAt first, keyset pagination — the cost follows the page, not the number of sessions.
 * A name search asks PostgreSQL for the candidates (the longest ASCII run of the needle, ILIKE)
 * and decides in JavaScript with the shared rule (listSearchMatches): PostgreSQL's case folding
 * is not JavaScript's (its lower('İ') is 'i'). Sessions whose cache was dropped are rebuilt
 * first (usually none).
 */
export async function listPage(db: Db, options: ListOptions): Promise<ListPage> {
	const limit = options.limit;
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
	if (options.createdBy !== undefined) where.push(hashedEquals("created_by", param(options.createdBy)));
	const search = options.search !== undefined && options.search.length > 0 ? options.search : undefined;
	const run = search === undefined ? "" : asciiRunOf(search);
	if (run.length > 0) {
		const pattern = param(likePattern(run));
		// Ids are letters and digits: a run with anything else can only be in a name.
		where.push(/^[0-9a-z]+$/i.test(run) ? `(name ILIKE ${pattern} OR id ILIKE ${pattern})` : `name ILIKE ${pattern}`);
	}
	let after = options.cursor === undefined ? undefined : decodeListCursor(options.cursor);
	const wanted = limit === undefined ? Number.POSITIVE_INFINITY : limit + 1;
	const batch = search === undefined ? wanted : Math.max(wanted, SEARCH_BATCH);
	const sessions: SessionMetadata[] = [];
	for (;;) {
		const values = [...params];
		const keyset = after ? [`(sort_ms, id) < ($${values.push(after.t)}, $${values.push(after.id)})`] : [];
		const limitSql = Number.isFinite(batch) ? ` LIMIT $${values.push(batch)}` : "";
		const { rows } = await db.query<ListRow>(
			`SELECT metadata, id, name, sort_ms FROM agent_sessions WHERE ${[...where, ...keyset].join(" AND ")} ORDER BY sort_ms DESC, id DESC${limitSql}`,
			values,
		);
		for (const row of rows) {
			if (search === undefined || listSearchMatches(search, row.id, row.name ?? undefined)) sessions.push(row.metadata);
			if (sessions.length >= wanted) break;
		}
		const last = rows[rows.length - 1];
		if (sessions.length >= wanted || rows.length < batch || !last) break;
		after = { t: Number(last.sort_ms), id: last.id };
	}
	if (limit === undefined || sessions.length <= limit) return { sessions };
	const page = sessions.slice(0, limit);
	return { sessions: page, nextCursor: encodeListCursor(page[page.length - 1] as SessionMetadata) };
}
