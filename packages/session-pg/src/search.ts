import type { SearchHit, SearchOptions } from "@agent/session-format";
import type { TextMatcher } from "@agent/session-format/store-kit";
import { hashedEquals } from "./list.js";
import { type Db, decodeRow, type RecordRow } from "./rows.js";

export const DEFAULT_SEARCH_LIMIT = 100;
const PAGE_ROWS = 500;
/** Sessions read per step when walking the listing (a common word). */
const SESSIONS_PER_STEP = 200;
/**
 * Listing steps walked before a search turns to the index. A word in many messages fills the
 * limit from the newest sessions within them (a few ms, where sorting every row that holds it
 * took ~1 s over 100,000 sessions); a rarer word then costs these steps more (~3 ms each).
 */
const WALK_STEPS_FIRST = 5;
/** A session with more records than this is searched through the index, not read (see largeSessionRows). */
const LARGE_SESSION_RECORDS = 2_000;

/**
 * A message row's line from its "content" key on: the expression agent_records_message_search
 * (migration 4) indexes, written exactly as there so that PostgreSQL uses the index. A JSON string
 * cannot hold `"content":` unescaped, so the first one is the record's own key.
 */
export const MESSAGE_CONTENT_SQL = `substring(line from position('"content":' in line))`;

interface SearchRow extends RecordRow {
	session_id: string;
	name: string | null;
}

interface SessionRow {
	id: string;
	name: string | null;
	sort_ms: string;
	last_seq: number;
}

/**
 * The condition every matching message row's content meets, as the file store scans its raw
 * lines (search.ts there): the query's words with whitespace or its JSON escapes between them
 * (TextMatcher.rawPattern, here as a PostgreSQL regular expression, which the trigram index
 * answers), else its longest ASCII word (rawWord, ILIKE), else none (every message row).
 */
export interface ContentFilter {
	/** The SQL condition, with `$n` standing for the one parameter. */
	sql: (param: string) => string;
	value: string;
}

/** PostgreSQL's twin of text-search.ts's RAW_WHITESPACE: whitespace, a JSON escape, or any non-ASCII character. */
const PG_RAW_WHITESPACE = "(?:[[:space:]]|\\\\[nrtfb]|\\\\u[0-9a-fA-F]{4}|[^\\x01-\\x7f])+";

export function contentFilter(matcher: TextMatcher): ContentFilter | undefined {
	if (matcher.rawWords) {
		const pattern = matcher.rawWords
			.map((word) => escapeRegex(JSON.stringify(word).slice(1, -1)))
			.join(PG_RAW_WHITESPACE);
		return { sql: (param) => `${MESSAGE_CONTENT_SQL} ~* ${param}`, value: pattern };
	}
	if (matcher.rawWord.length > 0) {
		return { sql: (param) => `${MESSAGE_CONTENT_SQL} ILIKE ${param}`, value: `%${escapeLike(matcher.rawWord)}%` };
	}
	return undefined;
}

interface Search {
	db: Db;
	matcher: TextMatcher;
	limit: number;
	filter: ContentFilter | undefined;
	options: SearchOptions;
}

/**
 * Full-text search over the message rows, in the contract's order (sessions of newest activity
 * first, seq within a session), on one connection (`db`, in a transaction: store.ts bounds it with
 * statement_timeout and cancels it when the caller's signal aborts). PostgreSQL picks the
 * candidate rows (contentFilter); the shared TextMatcher decides each hit and words its snippet,
 * exactly as the file store does. First it walks the newest sessions (a common word is answered
 * there); when a few steps do not reach the limit it asks the trigram index
 * (agent_records_message_search, where pg_trgm exists) for every candidate row, sorted once
 * and read through a cursor. Damaged rows are skipped: verify reports them.
 */
export async function searchRows(db: Db, matcher: TextMatcher, options: SearchOptions): Promise<SearchHit[]> {
	const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
	const search = { db, matcher, limit, filter: contentFilter(matcher), options };
	if (search.filter === undefined) return (await bySessions(search, Number.POSITIVE_INFINITY)).hits;
	const walked = await bySessions(search, WALK_STEPS_FIRST);
	return walked.complete ? walked.hits : byCandidates(search);
}

/** The sessions' filters of the search options, as SQL conditions on agent_sessions `s`, adding their values to `params`. */
function sessionFilters(options: SearchOptions, params: unknown[]): string[] {
	const where: string[] = [];
	const archived = options.archived ?? false;
	if (archived !== true) where.push(archived === "only" ? "s.archived" : "NOT s.archived");
	if (options.cwd !== undefined) {
		params.push(options.cwd);
		where.push(hashedEquals("s.cwd", `$${params.length}`));
	}
	if (options.createdBy !== undefined) {
		params.push(options.createdBy);
		where.push(hashedEquals("s.created_by", `$${params.length}`));
	}
	return where;
}

/**
 * A rarer word: every candidate row the index finds, joined to its session and sorted in one
 * pass, read a page at a time through a cursor until the limit is reached. (Paging with LIMIT and
 * OFFSET sorted every candidate again for each page: 34 to 48 s for a two-word query over 40,000
 * rows that each held one of the words.)
 */
async function byCandidates({ db, matcher, limit, filter, options }: Search): Promise<SearchHit[]> {
	const params: unknown[] = [filter?.value];
	const where = [
		"r.record_type = 'message'",
		...(filter ? [filter.sql("$1")] : []),
		...sessionFilters(options, params),
	];
	await db.query(
		`DECLARE agent_search NO SCROLL CURSOR FOR
		 SELECT r.session_id, r.seq, r.line, s.name FROM agent_records r JOIN agent_sessions s ON s.id = r.session_id
		 WHERE ${where.join(" AND ")} ORDER BY s.sort_ms DESC, s.id DESC, r.seq ASC`,
		params,
	);
	const hits: SearchHit[] = [];
	for (;;) {
		options.signal?.throwIfAborted();
		const { rows } = await db.query<SearchRow>(`FETCH ${PAGE_ROWS} FROM agent_search`);
		if (collect(hits, rows, matcher, limit) || rows.length < PAGE_ROWS) break;
	}
	await db.query("CLOSE agent_search");
	return hits;
}

/**
 * The sessions in listing order, SESSIONS_PER_STEP at a time (keyset paging on the listing's
 * order), and the matching message rows of each step's sessions by their primary key, until
 * `limit` hits or `maxSteps` steps. `complete` says whether the hits are the whole answer (the
 * limit reached, or every session walked).
 */
async function bySessions(
	{ db, matcher, limit, filter, options }: Search,
	maxSteps: number,
): Promise<{ hits: SearchHit[]; complete: boolean }> {
	const hits: SearchHit[] = [];
	let after: SessionRow | undefined;
	for (let step = 0; step < maxSteps; step++) {
		options.signal?.throwIfAborted();
		const params: unknown[] = [];
		const where = sessionFilters(options, params);
		if (after) {
			params.push(after.sort_ms, after.id);
			where.push(`(s.sort_ms, s.id) < ($${params.length - 1}::bigint, $${params.length})`);
		}
		const { rows: sessions } = await db.query<SessionRow>(
			`SELECT s.id, s.name, s.sort_ms, s.last_seq FROM agent_sessions s ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}
			 ORDER BY s.sort_ms DESC, s.id DESC LIMIT ${SESSIONS_PER_STEP}`,
			params,
		);
		if (sessions.length === 0) return { hits, complete: true };
		const isLarge = (session: SessionRow) => filter !== undefined && session.last_seq > LARGE_SESSION_RECORDS;
		const bySession = await smallSessionRows(
			db,
			sessions.filter((session) => !isLarge(session)).map((session) => session.id),
			filter,
		);
		for (const session of sessions) {
			const pages =
				filter !== undefined && isLarge(session)
					? largeSessionRows(db, session.id, filter)
					: [bySession.get(session.id) ?? []];
			for await (const rows of pages) {
				const named = rows.map((row) => ({ ...row, session_id: session.id, name: session.name }));
				if (collect(hits, named, matcher, limit)) return { hits, complete: true };
			}
		}
		if (sessions.length < SESSIONS_PER_STEP) return { hits, complete: true };
		after = sessions[sessions.length - 1];
	}
	return { hits, complete: false };
}

/**
 * The candidate message rows (all message rows without a filter) of a step's sessions of up to
 * LARGE_SESSION_RECORDS records, by session: read together by primary key with the filter checked
 * on each row. OFFSET 0 keeps PostgreSQL from answering the filter with the trigram index
 * instead, which for a common word reads every row that holds it (1 s over 100,000 sessions) to
 * keep the step's few.
 */
async function smallSessionRows(
	db: Db,
	ids: readonly string[],
	filter: ContentFilter | undefined,
): Promise<Map<string, RecordRow[]>> {
	const bySession = new Map<string, RecordRow[]>();
	if (ids.length === 0) return bySession;
	const { rows } = await db.query<RecordRow & { session_id: string }>(
		`SELECT session_id, seq, line FROM (SELECT session_id, seq, line FROM agent_records
		 WHERE session_id = ANY($1) AND record_type = 'message' OFFSET 0) step
		 ${filter !== undefined ? `WHERE ${filter.sql("$2")}` : ""}`,
		filter !== undefined ? [ids, filter.value] : [ids],
	);
	for (const row of rows) {
		const found = bySession.get(row.session_id);
		if (found) found.push(row);
		else bySession.set(row.session_id, [row]);
	}
	for (const found of bySession.values()) found.sort((a, b) => a.seq - b.seq);
	return bySession;
}

/**
 * A large session's candidate rows, in seq order, a page at a time; reading it whole would cost
 * its size (1.7 s for 100 MB) whenever the word is rare in it. The index (session_id, content)
 * first says whether the session holds more than a page of them: if not, they are those the index
 * finds; if so, the word is common there, and a read by primary key finds a page of them early.
 */
async function* largeSessionRows(db: Db, id: string, filter: ContentFilter): AsyncGenerator<RecordRow[]> {
	const { rows: few } = await db.query<RecordRow>(
		`SELECT seq, line FROM agent_records WHERE session_id = $1 AND record_type = 'message'
		 AND ${filter.sql("$2")} LIMIT ${PAGE_ROWS + 1}`,
		[id, filter.value],
	);
	if (few.length <= PAGE_ROWS) {
		yield few.sort((a, b) => a.seq - b.seq);
		return;
	}
	for (let after = 0; ; ) {
		const { rows } = await db.query<RecordRow>(
			`SELECT seq, line FROM (SELECT seq, line FROM agent_records WHERE session_id = $1 AND record_type = 'message'
			 AND seq > $3 ORDER BY seq OFFSET 0) session WHERE ${filter.sql("$2")} LIMIT ${PAGE_ROWS}`,
			[id, filter.value, after],
		);
		yield rows;
		if (rows.length < PAGE_ROWS) return;
		after = (rows[rows.length - 1] as RecordRow).seq;
	}
}

/** Adds the rows that match to `hits`; true once `limit` is reached. */
function collect(hits: SearchHit[], rows: readonly SearchRow[], matcher: TextMatcher, limit: number): boolean {
	for (const row of rows) {
		const record = decodeRow(row, {}, `session ${row.session_id}`);
		const hit = record && matcher.match(row.session_id, record, row.name ?? undefined);
		if (hit) hits.push(hit);
		if (hits.length >= limit) return true;
	}
	return false;
}

/** The word as a LIKE pattern's literal text: its own wildcards and the escape character escaped. */
function escapeLike(word: string): string {
	return word.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Printable ASCII as a literal of PostgreSQL's regular expressions: every character but letters and digits escaped. */
function escapeRegex(text: string): string {
	return text.replace(/[^A-Za-z0-9]/g, (c) => `\\${c}`);
}
