import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGE_CONTENT_SQL } from "./search.js";
import { openPgStore, type PgSessionStore } from "./store.js";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "./testing.js";

const server = await findTestPostgres();

describe.skipIf(server === undefined)("PostgreSQL store: the message search index", () => {
	let database: TestDatabase;
	let store: PgSessionStore;
	beforeAll(async () => {
		database = await createTestDatabase(server as string);
		store = await openPgStore({ url: database.url, maxConnections: 2 });
	});
	afterAll(async () => {
		await store?.close();
		await database?.drop();
	});

	it("search's condition is the expression migration 4 indexes (PostgreSQL uses the index for it)", async () => {
		const client = await store.pool.connect();
		try {
			await client.query("SET enable_seqscan = off");
			const { rows } = await client.query<{ "QUERY PLAN": string }>(
				`EXPLAIN SELECT 1 FROM agent_records WHERE record_type = 'message' AND ${MESSAGE_CONTENT_SQL} ILIKE '%needle%'`,
			);
			expect(rows.map((row) => row["QUERY PLAN"]).join("\n")).toContain("agent_records_message_search");
		} finally {
			client.release();
		}
	});

	it("the indexed text starts at the record's own content key, even when a name holds the key's text", async () => {
		const { id } = await store.create({ name: 'say "content": here' });
		await store.append(id, [
			{ recordType: "message", role: "user", content: [{ type: "text", text: 'quote "content": and more' }] },
		]);
		const { rows } = await store.pool.query<{ indexed: string }>(
			`SELECT ${MESSAGE_CONTENT_SQL} AS indexed FROM agent_records WHERE session_id = $1`,
			[id],
		);
		expect(rows.map((row) => row.indexed)).toEqual([
			'"content":[{"type":"text","text":"quote \\"content\\": and more"}]}',
		]);
		expect((await store.search('quote "content": and')).map((hit) => hit.seq)).toEqual([1]);
	});

	it("a word too rare for the first steps of the listing is found through the index, in listing order", async () => {
		// 1,100 sessions (more than the walk's first steps cover), one message each; every 100th holds the word.
		await store.pool.query(
			`INSERT INTO agent_sessions (id, created, metadata, last_seq, sort_ms, archived, source, name)
			 SELECT 'RARE' || lpad(n::text, 22, '0'), '{}', '{}', 1, 1700000000000 + n, false, 'interactive', 'rare ' || n
			 FROM generate_series(1, 1100) AS n`,
		);
		await store.pool.query(
			`INSERT INTO agent_records (session_id, seq, record_type, line)
			 SELECT 'RARE' || lpad(n::text, 22, '0'), 1, 'message',
			   '{"recordType":"message","schemaVersion":1,"seq":1,"timestamp":"2023-11-14T22:13:20.000Z","role":"user","content":[{"type":"text","text":"note ' ||
			   n || CASE WHEN n % 100 = 0 THEN ' about the walrus' ELSE '' END || '"}]}'
			 FROM generate_series(1, 1100) AS n`,
		);
		const hits = await store.search("WALRUS");
		expect(hits.map((hit) => [hit.sessionName, hit.snippet])).toEqual(
			[1100, 1000, 900, 800, 700, 600, 500, 400, 300, 200, 100].map((n) => [`rare ${n}`, `note ${n} about the walrus`]),
		);
		expect((await store.search("walrus", { limit: 3 })).map((hit) => hit.sessionName)).toEqual([
			"rare 1100",
			"rare 1000",
			"rare 900",
		]);
	});

	it("a session of more records than a walk step reads (asked through the index or a page at a time): its hits in seq order among the others", async () => {
		const big = await store.create({ name: "big" });
		for (let from = 0; from < 2_100; from += 700) {
			await store.append(
				big.id,
				Array.from({ length: 700 }, (_, i) => ({
					recordType: "message" as const,
					role: "user" as const,
					content: [
						{ type: "text" as const, text: `entry ${from + i}${(from + i) % 700 === 5 ? " with a narwhal" : ""}` },
					],
				})),
			);
		}
		const small = await store.create({ name: "small" });
		await store.append(small.id, [
			{ recordType: "message", role: "user", content: [{ type: "text", text: "one narwhal here" }] },
		]);
		expect((await store.search("narwhal")).map((hit) => [hit.sessionName, hit.seq])).toEqual([
			["small", 1],
			["big", 6],
			["big", 706],
			["big", 1406],
		]);
		// A word in every message of the large session: read by primary key, a page at a time, in seq order.
		const every = await store.search("entry", { limit: 600 });
		expect(every.map((hit) => [hit.sessionName, hit.seq])).toEqual(
			Array.from({ length: 600 }, (_, i) => ["big", i + 1]),
		);
	});
});
