import { AgentSessionError, type SearchHit, type SearchOptions, textMatcher } from "@agent/session-format";
import { type Db, decodeRow, type RecordRow } from "./rows.js";

export const DEFAULT_SEARCH_LIMIT = 100;
const PAGE_ROWS = 500;

interface SearchRow extends RecordRow {
	session_id: string;
	name: string | null;
}

/**
 * Full-text search over the message rows: PostgreSQL picks the candidate rows (message records
 * whose line holds the query's longest raw word, case-insensitively: a trigram index serves it
 * where pg_trgm exists), in the contract's order (sessions of newest activity first, seq within
 * a session), a page at a time; the shared TextMatcher decides each hit and words its snippet,
 * exactly as the file store does. Damaged rows are skipped: verify reports them.
 */
export async function searchRows(db: Db, query: string, options: SearchOptions): Promise<SearchHit[]> {
	const matcher = textMatcher(query);
	const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
	if (!Number.isInteger(limit) || limit < 1) {
		throw new AgentSessionError(
			"INVALID_ARGUMENT",
			`@agent/session-pg: search limit must be a whole number >= 1, got ${limit}`,
		);
	}
	const where = ["r.record_type = 'message'"];
	const params: unknown[] = [];
	if (matcher.rawWord.length > 0) {
		params.push(`%${escapeLike(matcher.rawWord)}%`);
		where.push(`r.line ILIKE $${params.length}`);
	}
	const archived = options.archived ?? false;
	if (archived !== true) where.push(archived === "only" ? "s.archived" : "NOT s.archived");
	if (options.cwd !== undefined) {
		params.push(options.cwd);
		where.push(`s.cwd = $${params.length}`);
	}
	const sql = `SELECT r.session_id, r.seq, r.line, s.name FROM agent_records r JOIN agent_sessions s ON s.id = r.session_id
		WHERE ${where.join(" AND ")} ORDER BY s.sort_ms DESC, s.id DESC, r.seq ASC LIMIT ${PAGE_ROWS} OFFSET $${params.length + 1}`;
	const hits: SearchHit[] = [];
	for (let offset = 0; hits.length < limit; offset += PAGE_ROWS) {
		options.signal?.throwIfAborted();
		const { rows } = await db.query<SearchRow>(sql, [...params, offset]);
		for (const row of rows) {
			const record = decodeRow(row, {}, `session ${row.session_id}`);
			const hit = record && matcher.match(row.session_id, record, row.name ?? undefined);
			if (hit) hits.push(hit);
			if (hits.length >= limit) break;
		}
		if (rows.length < PAGE_ROWS) break;
	}
	return hits;
}

/** The word as a LIKE pattern's literal text: its own wildcards and the escape character escaped. */
function escapeLike(word: string): string {
	return word.replace(/[\\%_]/g, (c) => `\\${c}`);
}
