import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionStore, StoredRecord } from "@agent/session-format/reading";
import { createFileStore } from "@agent/session-fs";
import { openPgStore } from "@agent/session-pg";
import { createTestDatabase, findTestPostgres } from "@agent/session-pg/testing";
import { afterAll, beforeAll, describe } from "vitest";
import { type ChatStore, createChatStore } from "../src/index.js";

/** PostgreSQL for the tests (AGENT_TEST_PG_URL, 127.0.0.1:5432 or a throwaway cluster); undefined skips them (never under CI). */
export const postgres = await findTestPostgres();

/** The stores every adapter test runs on. */
export const STORE_KINDS = ["file", "postgres"] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** A store of its own for one test file, and where another process finds it. */
export interface TestStore {
	kind: StoreKind;
	store: SessionStore;
	/** The file store's home or the database URL: what test/chat-child.mjs and the CLI's --store take. */
	location: string;
	/** Another instance over the same data, as another server would open it. */
	another(): Promise<SessionStore>;
	close(): Promise<void>;
}

export async function openTestStore(kind: StoreKind): Promise<TestStore> {
	if (kind === "file") {
		const home = mkdtempSync(join(tmpdir(), "ai-sdk-"));
		return {
			kind,
			store: createFileStore({ home }),
			location: home,
			another: async () => createFileStore({ home }),
			close: async () => rmSync(home, { recursive: true, force: true }),
		};
	}
	if (!postgres) throw new Error("no PostgreSQL for the tests");
	const database = await createTestDatabase(postgres, "agent_ai_sdk");
	const opened: Array<{ close(): Promise<void> }> = [];
	const open = async () => {
		const store = await openPgStore({ url: database.url, maxConnections: 4 });
		opened.push(store);
		return store;
	};
	return {
		kind,
		store: await open(),
		location: database.url,
		another: open,
		close: async () => {
			for (const store of opened) await store.close();
			await database.drop();
		},
	};
}

/** Every record of a session, in log order. */
export async function recordsOf(store: SessionStore, id: string): Promise<StoredRecord[]> {
	const out: StoredRecord[] = [];
	for await (const record of store.read(id)) out.push(record);
	return out;
}

/** The stores a test file runs on: the file store, and PostgreSQL when there is one (always under CI). */
export const TEST_STORE_KINDS = STORE_KINDS.filter((kind) => kind === "file" || postgres !== undefined);

/**
 * Runs `body` once per store kind, with a store of its own opened before and removed after;
 * `use()` gives it and a chat store over it.
 */
export function describeOnStores(title: string, body: (use: () => { target: TestStore; chats: ChatStore }) => void) {
	describe.each(TEST_STORE_KINDS)(`${title} (%s store)`, (kind) => {
		let target: TestStore | undefined;
		let chats: ChatStore | undefined;
		beforeAll(async () => {
			target = await openTestStore(kind);
			chats = createChatStore({ store: target.store });
		});
		afterAll(async () => {
			await target?.close();
		});
		body(() => {
			if (!target || !chats) throw new Error("the test store is not open");
			return { target, chats };
		});
	});
}
