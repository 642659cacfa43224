import { isAgentSessionError } from "@agent/session-format";
import type { PoolClient } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boundedRead } from "./bounded-read.js";
import { openPgStore, type PgSessionStore } from "./store.js";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "./testing.js";

const server = await findTestPostgres();

/** Statements of this database running `text` (other than the query asking). */
async function running(store: PgSessionStore, text: string): Promise<number> {
	const { rows } = await store.pool.query<{ n: number }>(
		"SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()",
		[`%${text}%`],
	);
	return rows[0]?.n ?? 0;
}

describe.skipIf(server === undefined)("PostgreSQL store: what a lease or a search holds is given back", () => {
	let database: TestDatabase;
	let store: PgSessionStore;
	beforeAll(async () => {
		database = await createTestDatabase(server as string);
		store = await openPgStore({ url: database.url, maxConnections: 4, maxLeases: 1 });
	});
	afterAll(async () => {
		await store?.close();
		await database?.drop();
	});

	it("2,000 leases taken and released leave their pooled connection with the listeners it had", async () => {
		const { id } = await store.create();
		// One lease connection (maxLeases: 1): every lease gets the same pooled client.
		const clients = new Set<PoolClient>();
		const leasePool = (store as unknown as { leasePool: import("pg").Pool }).leasePool;
		leasePool.on("acquire", (client) => clients.add(client));
		const held = await store.lease(id);
		const [client] = [...clients];
		const whileHeld = client?.listenerCount("error") ?? -1;
		await held.release();
		const idle = client?.listenerCount("error") ?? -1;
		// waitMs 0: a try-lock, the fewest round trips (the listener is added the same way).
		for (let i = 0; i < 2_000; i++) await (await store.lease(id, { waitMs: 0 })).release();
		expect(clients.size).toBe(1);
		expect(client?.listenerCount("error")).toBe(idle);
		const again = await store.lease(id);
		expect(client?.listenerCount("error")).toBe(whileHeld);
		await again.release();
		// Before the fix each lease left one behind: 2,002 listeners, and MaxListenersExceededWarning.
		expect(client?.listenerCount("error")).toBeLessThan(10);
	});

	it("a read whose caller aborts is stopped in PostgreSQL at once, not left running", async () => {
		const stop = new AbortController();
		const read = boundedRead(store.pool, "sleeping", { timeoutMs: 60_000, signal: stop.signal }, (client) =>
			client.query("SELECT pg_sleep(30) AS agent_sleep_marker"),
		);
		const settled = read.then(
			() => undefined,
			(error: unknown) => error,
		);
		await expect.poll(() => running(store, "agent_sleep_marker"), { timeout: 5_000 }).toBe(1);
		const started = Date.now();
		stop.abort();
		const error = await settled;
		expect(isAgentSessionError(error, "ABORTED")).toBe(true);
		expect(Date.now() - started).toBeLessThan(5_000);
		await expect.poll(() => running(store, "agent_sleep_marker"), { timeout: 5_000 }).toBe(0);
	});

	it("a read running longer than its statement_timeout stops with a temporary failure that says so", async () => {
		const error = await boundedRead(store.pool, "sleeping", { timeoutMs: 200 }, (client) =>
			client.query("SELECT pg_sleep(10)"),
		).catch((caught: unknown) => caught);
		expect(isAgentSessionError(error, "STORAGE_FAILURE")).toBe(true);
		expect((error as { temporary?: boolean }).temporary).toBe(true);
		expect((error as Error).message).toMatch(/ran longer than 200 ms and was stopped \(statement_timeout\)/);
		expect((error as Error).message).not.toMatch(/reachable/);
	});

	it("a search given an aborted signal fails with ABORTED and leaves no statement running", async () => {
		const { id } = await store.create();
		await store.append(id, [{ recordType: "message", role: "user", content: [{ type: "text", text: "alpha" }] }]);
		const stop = new AbortController();
		stop.abort();
		await expect(store.search("alpha", { signal: stop.signal })).rejects.toMatchObject({ code: "ABORTED" });
		expect(await store.search("alpha")).toHaveLength(1);
	});
});
