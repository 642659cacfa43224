import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionStore } from "@agent/session-format";
import { createFileStore } from "@agent/session-fs";
import { openPgStore } from "@agent/session-pg";
import { createTestDatabase, findTestPostgres } from "@agent/session-pg/testing";
import { afterAll, beforeAll, describe } from "vitest";

/** Where a child process finds the same store. */
export type StoreSpec = { kind: "file"; home: string } | { kind: "pg"; url: string };

export interface TestStore {
	store: SessionStore;
	spec: StoreSpec;
}

const server = await findTestPostgres();

async function openStore(kind: "file" | "postgres"): Promise<TestStore & { close(): Promise<void> }> {
	if (kind === "file") {
		const home = await mkdtemp(join(tmpdir(), "openai-agents-"));
		return {
			store: createFileStore({ home }),
			spec: { kind: "file", home },
			close: () => rm(home, { recursive: true, force: true }),
		};
	}
	const database = await createTestDatabase(server as string, "agent_openai_agents");
	const store = await openPgStore({ url: database.url, maxConnections: 6 });
	return {
		store,
		spec: { kind: "pg", url: database.url },
		close: async () => {
			await store.close();
			await database.drop();
		},
	};
}

/** Runs the suite on the file store and on PostgreSQL (skipped only when there is none, never under CI). */
export function onEveryStore(suite: (current: () => TestStore) => void): void {
	describe.each(["file", "postgres"] as const)("on the %s store", (kind) => {
		describe.skipIf(kind === "postgres" && server === undefined)("", () => {
			let opened: (TestStore & { close(): Promise<void> }) | undefined;
			beforeAll(async () => {
				opened = await openStore(kind);
			});
			afterAll(async () => {
				await opened?.close();
			});
			suite(() => opened as TestStore);
		});
	});
}
