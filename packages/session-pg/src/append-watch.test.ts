import type { StoreChange } from "@agent/session-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPgStore, type PgSessionStore } from "./store.js";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "./testing.js";

const server = await findTestPostgres();

describe.skipIf(server === undefined)("the PostgreSQL store's watch", () => {
	let database: TestDatabase;
	let watching: PgSessionStore;
	let writer: PgSessionStore;
	beforeAll(async () => {
		database = await createTestDatabase(server as string);
		watching = await openPgStore({ url: database.url, maxConnections: 4 });
		writer = await openPgStore({ url: database.url, maxConnections: 4 });
	});
	afterAll(async () => {
		await watching?.close();
		await writer?.close();
		await database?.drop();
	});

	it("reports the records another instance appends, with the session's metadata after them", async () => {
		const changes: StoreChange[] = [];
		const watcher = await watching.watch((change) => changes.push(change));
		const { id } = await writer.create({ name: "elsewhere" });
		for (let i = 0; i < 3; i++) {
			await writer.append(id, [{ recordType: "message", role: "user", content: [{ type: "text", text: `m${i}` }] }]);
		}
		for (let i = 0; i < 200; i++) {
			if (changes.some((c) => c.type === "changed" && c.metadata.lastSeq === 3)) break;
			await new Promise((resolve) => setTimeout(resolve, 25));
		}
		const last = changes.at(-1);
		expect(last).toMatchObject({ type: "changed", sessionId: id });
		expect(last?.type === "changed" && last.metadata.lastSeq).toBe(3);
		expect(last?.type === "changed" && last.metadata.name).toBe("elsewhere");
		await watcher.close();
		const seen = changes.length;
		await writer.append(id, [{ recordType: "message", role: "user", content: [{ type: "text", text: "after" }] }]);
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(changes.length).toBe(seen);
	});
});
