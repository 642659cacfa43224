import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { exitWithin, runStoreScript } from "@agent/store-conformance";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openPgStore } from "./store.js";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "./testing.js";

const server = await findTestPostgres();
const CHILD = fileURLToPath(new URL("../test/child-closer.mjs", import.meta.url));

describe.skipIf(server === undefined)("close() lets go of everything the PostgreSQL store holds", () => {
	let database: TestDatabase;
	const children: ChildProcess[] = [];
	beforeAll(async () => {
		database = await createTestDatabase(server as string);
	});
	afterEach(() => {
		for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
	});
	afterAll(async () => {
		await database?.drop();
	});

	it.each(["close", "dispose"] as const)(
		"a script that held a lease, a watch and a relay ends by itself once it calls %s, the lease given back",
		async (how) => {
			const ran = runStoreScript(CHILD, { url: database.url, how });
			children.push(ran.child);
			const { id } = (await ran.printed) as { id: string };
			// Generous for a loaded machine: a process that nothing holds ends in a moment.
			expect(await exitWithin(ran, 30_000)).toBe(0);
			const store = await openPgStore({ url: database.url });
			try {
				const lease = await store.lease(id, { waitMs: 0 });
				expect((await lease.append([{ recordType: "session_info", name: "next" }])).metadata.lastSeq).toBe(3);
				await lease.release();
			} finally {
				await store.close();
			}
		},
	);

	it("without close, the connections a held lease, a watch and a relay keep open keep the script running (what close is for)", async () => {
		const ran = runStoreScript(CHILD, { url: database.url, how: "keep" });
		children.push(ran.child);
		await ran.printed;
		expect(await exitWithin(ran, 3_000)).toBe("running");
	});
});
