import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPgStore, type PgSessionStore } from "./store.js";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "./testing.js";

const server = await findTestPostgres();

describe.skipIf(server === undefined)("PgLease connections", () => {
	let database: TestDatabase;
	let store: PgSessionStore;
	beforeAll(async () => {
		database = await createTestDatabase(server as string, "agent_pg_lease");
		// One lease connection: every lease below takes the same one from the pool, and gives it back.
		store = await openPgStore({ url: database.url, maxLeases: 1 });
	});
	afterAll(async () => {
		await store?.close();
		await database?.drop();
	});

	it("a released lease leaves no listener on the pooled connection (they would pile up, one per lease)", async () => {
		const warnings: Error[] = [];
		const onWarning = (warning: Error) => warnings.push(warning);
		process.on("warning", onWarning);
		try {
			const { id } = await store.create();
			for (let i = 0; i < 30; i++) {
				const lease = await store.lease(id);
				await lease.append([{ recordType: "message", role: "user", content: [{ type: "text", text: `m${i}` }] }]);
				await lease.release();
			}
			await new Promise((resolve) => setTimeout(resolve, 10));
			expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
			expect((await store.metadata(id)).lastSeq).toBe(30);
		} finally {
			process.off("warning", onWarning);
		}
	});
});
