import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { openPgStore } from "@agent/session-pg";
import { createTestDatabase, findTestPostgres, lockTable, type TestDatabase } from "@agent/session-pg/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Instance, startInstance } from "./support/instance.js";

const pgServer = await findTestPostgres();

/** Text of the search's statements on the message rows (session-pg's search.ts), and of nothing else the server runs. */
const SEARCH_STATEMENT = "record_type = 'message'";

describe.skipIf(pgServer === undefined)(
	"a search whose HTTP client goes away stops in PostgreSQL (issue 29, case 2)",
	() => {
		let database: TestDatabase;
		let home: string;
		let instance: Instance;
		beforeAll(async () => {
			database = await createTestDatabase(pgServer as string, "agent_search_cancel");
			const store = await openPgStore({ url: database.url });
			const { id } = await store.create({ name: "to search" });
			await store.append(id, [
				{ recordType: "message", role: "user", content: [{ type: "text", text: "alpha bravo" }] },
			]);
			await store.close();
			home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-search-cancel-"));
			instance = await startInstance(home, ["--store", database.url]);
		});
		afterAll(async () => {
			if (instance?.child.exitCode === null) instance.child.kill("SIGKILL");
			await database?.drop();
			await fs.rm(home, { recursive: true, force: true });
		});

		it("GET /api/search cancelled by its client leaves no statement running (it once ran on for its whole length)", async () => {
			// The records table held locked: the search's statement waits in PostgreSQL, however fast the machine.
			const lock = await lockTable(database.url, "agent_records");
			try {
				const client = new AbortController();
				const request = fetch(`${instance.url}/api/search?q=alpha`, { signal: client.signal }).catch(
					(error: unknown) => error,
				);
				await expect.poll(() => lock.waiting(SEARCH_STATEMENT), { timeout: 20_000 }).toBe(1);
				client.abort();
				await request;
				// Gone while the lock is still held: cancelled, not finished (statement_timeout is 15 s).
				await expect.poll(() => lock.waiting(SEARCH_STATEMENT), { timeout: 5_000 }).toBe(0);
			} finally {
				await lock.release();
			}
			const again = await fetch(`${instance.url}/api/search?q=alpha`);
			expect(again.status).toBe(200);
			expect(((await again.json()) as { total: number }).total).toBe(1);
		});
	},
);
