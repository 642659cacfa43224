// The stores every graph test runs on: the file store, and PostgreSQL when there is one (under
// CI=true findTestPostgres throws instead of skipping).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionStore } from "@agent/session-format";
import { createFileStore } from "@agent/session-fs";
import { openPgStore } from "@agent/session-pg";
import { createTestDatabase, findTestPostgres } from "@agent/session-pg/testing";
import { afterAll, beforeAll } from "vitest";

const server = await findTestPostgres();

export type StoreKind = "file" | "postgres";
export const STORE_KINDS: StoreKind[] = server === undefined ? ["file"] : ["file", "postgres"];

export interface OpenedStore {
	store: SessionStore;
	/** Where it is, for child processes and the CLI: a directory (the file store's home) or a postgres:// URL. */
	location: string;
	close(): Promise<void>;
}

export async function openStore(kind: StoreKind): Promise<OpenedStore> {
	if (kind === "file") {
		const home = mkdtempSync(join(tmpdir(), "agent-langgraph-"));
		return {
			store: createFileStore({ home }),
			location: home,
			close: async () => rmSync(home, { recursive: true, force: true }),
		};
	}
	const database = await createTestDatabase(server as string, "agent_langgraph_test");
	const store = await openPgStore({ url: database.url, maxConnections: 4 });
	return {
		store,
		location: database.url,
		close: async () => {
			await store.close();
			await database.drop();
		},
	};
}

/** For a describe block: a store of this kind opened before its tests and closed after them. */
export function useStore(kind: StoreKind): () => OpenedStore {
	let opened: OpenedStore | undefined;
	beforeAll(async () => {
		opened = await openStore(kind);
	});
	afterAll(async () => {
		await opened?.close();
	});
	return () => {
		if (!opened) throw new Error("the store is opened in beforeAll");
		return opened;
	};
}
