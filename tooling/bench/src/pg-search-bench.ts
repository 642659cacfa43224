import type { RecordInput, SessionStore } from "@agent/session-format";
import type { FileSessionStore } from "@agent/session-fs";
import type { PgSessionStore } from "@agent/session-pg";

/**
 * Message search side by side, on the same conversations written through each store's API:
 * `sessions` sessions of four messages, every one holding "alpha" and "bravo" but never next to
 * each other, so the query "alpha bravo" matches no message and each store must rule out every
 * one (the case that took PostgreSQL 34 to 48 s over 10,000 sessions, against 1.1 s for files).
 */

export const SEARCH_QUERY = "alpha bravo";

function conversation(n: number): RecordInput[] {
	const message = (role: "user" | "assistant", turn: number): RecordInput => {
		const kind = role === "user" ? "question" : "answer";
		const text = `${kind} ${turn} of session ${n}: alpha is the first word here, and bravo comes after it, never right after alpha. Lorem ipsum dolor sit amet, consectetur adipiscing elit.`;
		const content = [{ type: "text" as const, text }];
		return role === "user"
			? { recordType: "message", role, content }
			: { recordType: "message", role, content, provider: "faux", model: "faux-1" };
	};
	return [message("user", 1), message("assistant", 1), message("user", 2), message("assistant", 2)];
}

async function fill(store: SessionStore, sessions: number, parallel: number): Promise<void> {
	let next = 0;
	await Promise.all(
		Array.from({ length: parallel }, async () => {
			for (let n = next++; n < sessions; n = next++) {
				const { id } = await store.create({ name: `search bench ${n}` });
				await store.append(id, conversation(n));
			}
		}),
	);
}

export interface SearchSideBySide {
	fileMs: number;
	pgMs: number;
	hits: { file: number; pg: number };
}

/** Fills both stores, then times the query on each (median of `runs`, after warm-up runs). */
export async function searchSideBySide(
	files: FileSessionStore,
	pg: PgSessionStore,
	sessions: number,
	runs: number,
	time: (runs: number, work: () => Promise<unknown>) => Promise<number>,
): Promise<SearchSideBySide> {
	await fill(files, sessions, 1);
	await fill(pg, sessions, 8);
	// As autovacuum would: statistics, and the trigram index's pending list merged.
	await pg.pool.query("VACUUM ANALYZE agent_records");
	await pg.pool.query("VACUUM ANALYZE agent_sessions");
	const hits = { file: 0, pg: 0 };
	const fileMs = await time(runs, async () => {
		hits.file = (await files.search(SEARCH_QUERY, { limit: 100 })).length;
	});
	const pgMs = await time(runs, async () => {
		hits.pg = (await pg.search(SEARCH_QUERY, { limit: 100 })).length;
	});
	return { fileMs, pgMs, hits };
}
