// The initializer `validate-checkpointer` runs LangGraph's conformance suite with: StoreCheckpointer
// over the PostgreSQL store, on a throwaway database emptied after each checkpointer.
import type { SessionStore } from "@agent/session-format";
import { openPgStore, type PgSessionStore } from "@agent/session-pg";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "@agent/session-pg/testing";
import { StoreCheckpointer } from "../../src/index.js";

let database: TestDatabase | undefined;
let store: PgSessionStore | undefined;

async function deleteEverySession(sessions: SessionStore): Promise<void> {
	for (;;) {
		const page = await sessions.list({ archived: true, limit: 500 });
		if (page.sessions.length === 0) return;
		for (const session of page.sessions) await sessions.delete(session.id);
	}
}

export default {
	checkpointerName: "@agent/langgraph StoreCheckpointer (PostgreSQL)",
	beforeAllTimeout: 60_000,
	async beforeAll(): Promise<void> {
		const server = await findTestPostgres();
		if (!server) throw new Error("no PostgreSQL for the validation suite (set AGENT_TEST_PG_URL)");
		database = await createTestDatabase(server, "agent_langgraph_validate");
		store = await openPgStore({ url: database.url, maxConnections: 4 });
	},
	async afterAll(): Promise<void> {
		await store?.close();
		await database?.drop();
	},
	createCheckpointer(): StoreCheckpointer {
		if (!store) throw new Error("beforeAll did not open the store");
		return new StoreCheckpointer({ store });
	},
	async destroyCheckpointer(): Promise<void> {
		if (store) await deleteEverySession(store);
	},
};
