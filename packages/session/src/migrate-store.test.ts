import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { RecordInput, SessionStore, StoredRecord } from "@agent/session-format";
import { createFileStore } from "@agent/session-fs";
import { openPgStore, type PgSessionStore } from "@agent/session-pg";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "@agent/session-pg/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateStore } from "./migrate-store.js";

const server = await findTestPostgres();

const user = (text: string): RecordInput => ({
	recordType: "message",
	role: "user",
	content: [{ type: "text", text }],
});
const assistant = (text: string): RecordInput => ({
	recordType: "message",
	role: "assistant",
	content: [{ type: "text", text }],
	provider: "faux",
	model: "faux-1",
});

async function records(store: SessionStore, id: string): Promise<StoredRecord[]> {
	const out: StoredRecord[] = [];
	for await (const record of store.read(id)) out.push(record);
	return out;
}

/** What a user sees of every session: listing, metadata (but the log's byte count), records, context. */
async function observe(store: SessionStore) {
	const { sessions } = await store.list({ archived: true });
	const out: Record<string, unknown> = {};
	for (const metadata of sessions) {
		const { logBytes: _bytes, ...rest } = metadata;
		out[metadata.id] = {
			metadata: rest,
			records: await records(store, metadata.id),
			context: (await store.open(metadata.id)).context,
		};
	}
	return { order: sessions.map((session) => session.id), out };
}

describe.skipIf(server === undefined)("migrateStore: file store ⇄ PostgreSQL", () => {
	let database: TestDatabase;
	let pg: PgSessionStore;
	let home: string;
	beforeAll(async () => {
		database = await createTestDatabase(server as string, "agent_migrate_test");
		pg = await openPgStore({ url: database.url, maxConnections: 4 });
		home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-migrate-"));
	});
	afterAll(async () => {
		await pg?.close();
		await database?.drop();
		await fs.rm(home, { recursive: true, force: true });
	});

	it("copies every session exactly, resumes after an interruption, copies nothing when run again, and back", async () => {
		const files = createFileStore({ home: path.join(home, "a") });
		const main = await files.create({ name: "main", identityKey: "chat:1", systemPromptOverride: "be brief" });
		await files.append(main.id, [user("one"), assistant("two"), user("three"), assistant("four")]);
		await files.branch(main.id, 2);
		await files.append(main.id, [user("other branch")]);
		await files.label(main.id, 2, "answer");
		await files.append(main.id, [
			{
				recordType: "compaction",
				firstKeptSeq: 6,
				summary: "## Goal\nx",
				tokensBefore: 9,
				readFiles: [],
				modifiedFiles: [],
			},
		]);
		const fork = await files.fork(main.id, { name: "fork" });
		const archived = await files.create({ name: "old" });
		await files.append(archived.id, [user("old")]);
		await files.archive(archived.id);
		await files.create({ name: "empty", cwd: "/srv" });
		const total = (
			await Promise.all((await files.list({ archived: true })).sessions.map((s) => records(files, s.id)))
		).flat().length;

		// Cut off after the first session: the rest is copied by the next run.
		const stop = new AbortController();
		await expect(migrateStore(files, pg, { signal: stop.signal, onProgress: () => stop.abort() })).rejects.toThrow();
		const seen: number[] = [];
		const resumed = await migrateStore(files, pg, { onProgress: (progress) => seen.push(progress.index) });
		expect(resumed.sessions).toBe(4);
		expect(seen).toEqual([1, 2, 3, 4]);
		expect(resumed.verified).toBe(total);
		expect(await observe(pg)).toEqual(await observe(files));
		expect((await pg.metadata(fork.id)).forkedFrom?.sessionId).toBe(main.id);

		const again = await migrateStore(files, pg);
		expect(again.copied).toBe(0);
		expect(again.verified).toBe(total);

		const back = createFileStore({ home: path.join(home, "b") });
		const returned = await migrateStore(pg, back);
		expect(returned.copied).toBe(total);
		expect(await observe(back)).toEqual(await observe(files));
	});
});
