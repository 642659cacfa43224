import { runStoreConformance } from "@agent/store-conformance";
import { afterAll, beforeAll, describe, it } from "vitest";
import { openPgStore, PgSessionStore } from "./store.js";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "./testing.js";

const server = await findTestPostgres();

describe.skipIf(server === undefined)("PostgreSQL store", () => {
	let database: TestDatabase;
	let opened: PgSessionStore;
	beforeAll(async () => {
		database = await createTestDatabase(server as string);
		opened = await openPgStore({ url: database.url, maxConnections: 8 });
	});
	afterAll(async () => {
		await opened?.close();
		await database?.drop();
	});

	runStoreConformance("PgSessionStore", async () => {
		await opened.pool.query("TRUNCATE agent_sessions, agent_records, agent_leases, agent_accepted_turns");
		const store = new PgSessionStore(opened.pool, false);
		return {
			store,
			async cleanup() {},
			async dropCaches() {
				// Everything but the records (and the facts of sessions with none yet) is a cache.
				await opened.pool.query("UPDATE agent_sessions SET metadata = NULL");
				return new PgSessionStore(opened.pool, false);
			},
			async damage(id: string, seq: number) {
				await opened.pool.query(
					"UPDATE agent_records SET line = '#' || substr(line, 2) WHERE session_id = $1 AND seq = $2",
					[id, seq],
				);
			},
		};
	});
	it("finds PostgreSQL, or skips outside CI", () => undefined);
});
