import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileStore } from "@agent/session-fs";
import { describeDifferential } from "@agent/store-conformance";
import { afterAll, beforeAll, describe } from "vitest";
import { openPgStore, PgSessionStore } from "./store.js";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "./testing.js";

const server = await findTestPostgres();

describe.skipIf(server === undefined)("PostgreSQL beside the file store", () => {
	let database: TestDatabase;
	let opened: PgSessionStore;
	beforeAll(async () => {
		database = await createTestDatabase(server as string);
		opened = await openPgStore({ url: database.url, maxConnections: 6 });
	});
	afterAll(async () => {
		await opened?.close();
		await database?.drop();
	});

	describeDifferential(["FileSessionStore", "PgSessionStore"], async (clock) => {
		await opened.pool.query("TRUNCATE agent_sessions, agent_records, agent_leases, agent_accepted_turns");
		const home = mkdtempSync(join(tmpdir(), "differential-"));
		const now = () => clock.now;
		const pg = new PgSessionStore(opened.pool, false, { now, waitMs: 2_000 });
		return {
			a: createFileStore({ home, now, waitMs: 2_000 }),
			b: pg,
			async cleanup() {
				await pg.close();
				rmSync(home, { recursive: true, force: true });
			},
		};
	});
});
