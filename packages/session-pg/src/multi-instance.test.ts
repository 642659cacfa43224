import type { SessionStore, StoredRecord } from "@agent/session-format";
import { serializeRecord } from "@agent/session-format";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS, migrate } from "./migrations.js";
import { openPgStore, PgSessionStore } from "./store.js";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "./testing.js";

const server = await findTestPostgres();

function user(text: string) {
	return { recordType: "message" as const, role: "user" as const, content: [{ type: "text" as const, text }] };
}

async function all(store: SessionStore, id: string): Promise<StoredRecord[]> {
	const out: StoredRecord[] = [];
	for await (const record of store.read(id)) out.push(record);
	return out;
}

describe.skipIf(server === undefined)("PostgreSQL store: several instances over one database", () => {
	let database: TestDatabase;
	let a: PgSessionStore;
	let b: PgSessionStore;
	beforeAll(async () => {
		database = await createTestDatabase(server as string);
		// Two instances starting at once on an empty database: both migrate, one waits for the other.
		[a, b] = await Promise.all([
			openPgStore({ url: database.url, maxConnections: 6 }),
			openPgStore({ url: database.url, maxConnections: 6 }),
		]);
	});
	afterAll(async () => {
		await a?.close();
		await b?.close();
		await database?.drop();
	});

	it("migrations started by two instances at once apply once; running them again applies nothing", async () => {
		const { rows } = await a.pool.query<{ version: number }>(
			"SELECT version FROM agent_schema_migrations ORDER BY version",
		);
		expect(rows.map((row) => row.version)).toEqual(MIGRATIONS.map((step) => step.version));
		expect(await migrate(b.pool)).toEqual([]);
	});

	it("appends from two instances at once get contiguous seqs, never interleaved within a batch", async () => {
		const { id } = await a.create();
		const writes: Promise<unknown>[] = [];
		for (let i = 0; i < 15; i++) {
			writes.push(a.append(id, [user(`a${i}.1`), user(`a${i}.2`)], { waitMs: 60_000 }));
			writes.push(b.append(id, [user(`b${i}.1`), user(`b${i}.2`)], { waitMs: 60_000 }));
		}
		await Promise.all(writes);
		const records = await all(b, id);
		expect(records.map((record) => record.seq)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
		const texts = records.map((record) => (record as { content: Array<{ text: string }> }).content[0]?.text ?? "");
		for (let i = 0; i < texts.length; i += 2) expect(texts[i + 1]).toBe(texts[i]?.replace(".1", ".2"));
		expect((await a.metadata(id)).lastSeq).toBe(60);
	});

	it("each row holds the record exactly as a line of session.jsonl holds it", async () => {
		const { id } = await a.create({ name: "lines" });
		const { records } = await a.append(id, [user('é "quoted"\nnew line')]);
		const { rows } = await a.pool.query<{ line: string }>("SELECT line FROM agent_records WHERE session_id = $1", [id]);
		expect(rows.map((row) => row.line)).toEqual(records.map(serializeRecord));
	});

	it("a lease whose connection dies is taken over at once by another instance; the dead lease writes nothing more", async () => {
		const { id } = await a.create();
		const lease = await a.lease(id);
		await lease.append([user("before")]);
		await expect(b.append(id, [user("blocked")], { waitMs: 0 })).rejects.toMatchObject({ code: "SESSION_LOCKED" });
		// The holder's connection is cut (a crashed or partitioned instance): PostgreSQL frees the lock with it.
		await b.pool.query("SELECT pg_terminate_backend(backend_pid) FROM agent_leases WHERE session_id = $1", [id]);
		const taken = await b.lease(id, { waitMs: 10_000 });
		await taken.append([user("after")]);
		await taken.release();
		await expect(lease.append([user("too late")])).rejects.toMatchObject({ code: "STORAGE_FAILURE", temporary: true });
		await lease.release();
		expect(
			(await all(a, id)).map((record) => (record as { content: Array<{ text: string }> }).content[0]?.text),
		).toEqual(["before", "after"]);
	});

	it("resume reads only the rows from the latest compaction on, however long the session", async () => {
		const { id } = await a.create();
		const batch = Array.from({ length: 500 }, (_, i) => user(`old ${i}`));
		for (let i = 0; i < 4; i++) await a.append(id, batch);
		await a.append(id, [user("kept 1"), user("kept 2")]);
		await a.append(id, [
			{
				recordType: "compaction",
				firstKeptSeq: 2001,
				summary: "## Goal\nold",
				tokensBefore: 1,
				readFiles: [],
				modifiedFiles: [],
			},
			user("after"),
		]);
		const pool = new pg.Pool({ connectionString: database.url, max: 2 });
		let rowsRead = 0;
		const query = pool.query.bind(pool);
		pool.query = (async (...args: Parameters<typeof query>) => {
			const result = await (query as (...inner: unknown[]) => Promise<pg.QueryResult>)(...args);
			rowsRead += result.rows.length;
			return result;
		}) as typeof pool.query;
		try {
			const opened = await new PgSessionStore(pool, false).open(id);
			expect(opened.path.map((record) => record.seq)).toEqual([2001, 2002, 2003, 2004]);
			expect(opened.context.messages).toHaveLength(4); // summary + kept 1, kept 2, after
			expect(rowsRead).toBeLessThan(200);
		} finally {
			await pool.end();
		}
	});

	it("more leases held at once than the store has connections for reads: their reads and appends still go through", async () => {
		// Before leases had a pool of their own, three held leases took both connections and every read waited for ever.
		const small = await openPgStore({ url: database.url, maxConnections: 2, maxLeases: 4 });
		try {
			const ids = await Promise.all([1, 2, 3].map(async () => (await small.create()).id));
			const leases = await Promise.all(ids.map((id) => small.lease(id)));
			const opened = await Promise.all(ids.map((id) => small.open(id)));
			expect(opened.map((session) => session.metadata.id)).toEqual(ids);
			await Promise.all(leases.map((lease) => lease.append([user("while held")])));
			await Promise.all(leases.map((lease) => lease.release()));
			for (const id of ids) expect((await all(small, id)).map((record) => record.seq)).toEqual([1]);
		} finally {
			await small.close();
		}
	});

	it("a lease that finds every lease connection taken for its whole wait fails clearly (temporary), and the next one gets one", async () => {
		const one = await openPgStore({ url: database.url, maxLeases: 1 });
		try {
			const [first, second] = await Promise.all([one.create(), one.create()]);
			const held = await one.lease(first.id);
			const refused = await one.lease(second.id, { waitMs: 200 }).catch((error: unknown) => error);
			expect(refused).toMatchObject({ code: "STORAGE_FAILURE", temporary: true });
			expect((refused as Error).message).toMatch(/already holds 1 leases \(maxLeases\)/);
			await held.release();
			const next = await one.lease(second.id, { waitMs: 2_000 });
			await next.release();
		} finally {
			await one.close();
		}
	});

	it("a lease appends in one statement each from what it knows; a session changed under it after all is noticed, never overwritten", async () => {
		const { id } = await a.create();
		await a.append(id, [user("one")]);
		const lease = await a.lease(id);
		await lease.append([user("two")]);
		// What a writer that slipped in between the lease's read and its lock would leave: a record
		// and a last_seq the lease does not know (written here behind the lock's back).
		const line = JSON.stringify({
			recordType: "message",
			schemaVersion: 1,
			seq: 3,
			timestamp: "2025-01-01T00:00:00Z",
			role: "user",
			content: [{ type: "text", text: "three" }],
		});
		await a.pool.query("INSERT INTO agent_records (session_id, seq, record_type, line) VALUES ($1, 3, 'message', $2)", [
			id,
			line,
		]);
		await a.pool.query("UPDATE agent_sessions SET last_seq = 3, metadata = NULL WHERE id = $1", [id]);
		const result = await lease.append([user("four")]);
		expect(result.records.map((record) => record.seq)).toEqual([4]);
		await lease.append([user("five")]);
		await lease.release();
		const texts = (await all(a, id)).map(
			(record) => (record as { content?: Array<{ text?: string }> }).content?.[0]?.text,
		);
		expect(texts).toEqual(["one", "two", "three", "four", "five"]);
		expect((await a.metadata(id)).lastSeq).toBe(5);
		expect((await a.verify(id))[0]?.ok).toBe(true);
	});
});
