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

	it("copies everything it can: old text stored with U+FFFD, acknowledged gaps kept, a damaged session reported and left behind without a placeholder", async () => {
		const files = createFileStore({ home: path.join(home, "c") });
		const target = await openPgStore({ url: (await createTestDatabase(server as string, "agent_migrate_c")).url });
		const oldLine = async (id: string, record: object) => {
			const seq = (await files.metadata(id)).lastSeq + 1;
			const line = JSON.stringify({
				recordType: "session_info",
				schemaVersion: 1,
				seq,
				timestamp: "2025-01-01T00:00:00Z",
				...record,
			});
			await fs.appendFile(files.pathsOf(id).log, `${line}\n`);
			// Its metadata.json as the old version wrote it with the line.
			await files.repair(id);
		};
		/** Overwrites line `n` of a log with as many bytes of garbage: a damaged line in the middle. */
		const damage = async (id: string, n: number) => {
			const log = files.pathsOf(id).log;
			const lines = (await fs.readFile(log, "utf8")).split("\n");
			lines[n - 1] = "x".repeat(Buffer.byteLength(lines[n - 1] ?? ""));
			await fs.writeFile(log, lines.join("\n"));
		};
		// Written by a version that cut names by UTF-16 unit, or let U+0000 into a name.
		const surrogate = await files.create({ name: "ok" });
		await files.append(surrogate.id, [user("hi"), assistant("hello")]);
		await oldLine(surrogate.id, { name: `${"a".repeat(59)}\ud83d` });
		const nul = await files.create({ name: "ok" });
		await files.append(nul.id, [user("hi")]);
		await oldLine(nul.id, { name: "a\u0000b" });
		// A damaged line that repair acknowledged (with the seqs it held), one acknowledged by an older
		// repair (no seqs), and one nobody acknowledged.
		const repaired = await files.create({ name: "repaired" });
		await files.append(repaired.id, [user("one"), assistant("two"), user("three"), assistant("four")]);
		await damage(repaired.id, 2);
		expect((await files.repair(repaired.id)).ok).toBe(true);
		const olderRepair = await files.create({ name: "older repair" });
		await files.append(olderRepair.id, [user("one"), assistant("two"), user("three")]);
		await damage(olderRepair.id, 2);
		const lastSeq = (await files.metadata(olderRepair.id)).lastSeq;
		const byteOffset = (await fs.readFile(files.pathsOf(olderRepair.id).log, "utf8")).indexOf("\n") + 1;
		await fs.appendFile(
			files.pathsOf(olderRepair.id).log,
			`${JSON.stringify({ recordType: "damage_ack", schemaVersion: 1, seq: lastSeq + 1, timestamp: "2025-01-01T00:00:00Z", line: 2, byteOffset, reason: "damaged" })}\n`,
		);
		const broken = await files.create({ name: "broken" });
		await files.append(broken.id, [user("one"), assistant("two"), user("three")]);
		await damage(broken.id, 2);

		const verified = await files.verify(surrogate.id);
		expect(verified[0]?.ok).toBe(true);
		expect(verified[0]?.problems.map((problem) => problem.kind)).toEqual(["unportable_text"]);
		expect(verified[0]?.problems[0]?.message).toMatch(/lone surrogate.*PostgreSQL \(migrate\) stores U\+FFFD/);

		const result = await migrateStore(files, target);
		const byId = new Map(result.report.map((entry) => [entry.sessionId, entry]));
		expect(result.sessions).toBe(5);
		expect(result.failed).toBe(1);
		expect(byId.get(broken.id)).toMatchObject({ status: "failed", error: { code: "INVALID_RECORD" } });
		expect(byId.get(broken.id)?.error?.message).toMatch(/repair\(/);
		await expect(target.metadata(broken.id)).rejects.toMatchObject({ code: "SESSION_NOT_FOUND" });
		expect(byId.get(surrogate.id)).toMatchObject({ status: "copied", replaced: 1 });
		expect(byId.get(nul.id)).toMatchObject({ status: "copied", replaced: 1 });
		expect((await target.metadata(surrogate.id)).name).toBe(`${"a".repeat(59)}\uFFFD`);
		expect((await target.metadata(nul.id)).name).toBe("a\uFFFDb");
		const legacyAck = (await records(files, olderRepair.id)).find((record) => record.recordType === "damage_ack");
		expect(legacyAck && "seqs" in legacyAck).toBe(false);
		for (const id of [repaired.id, olderRepair.id]) {
			expect(byId.get(id)).toMatchObject({ status: "copied", gaps: [{ from: 2, to: 2 }] });
			const [report] = await target.verify(id);
			expect(report?.ok, JSON.stringify(report)).toBe(true);
			expect(report?.problems.find((problem) => problem.kind === "seq_gap")?.acknowledged).toBe(true);
			expect((await target.open(id)).context).toEqual((await files.open(id)).context);
		}
		// A file store takes the copy back with its gap acknowledged too.
		const back = createFileStore({ home: path.join(home, "d") });
		const returned = await migrateStore(target, back);
		expect(returned.failed).toBe(0);
		expect((await back.verify(repaired.id))[0]?.ok).toBe(true);
		// Run again: nothing more to copy, the damaged session still reported.
		const again = await migrateStore(files, target);
		expect(again).toMatchObject({ copied: 0, failed: 1 });
		await target.close();
	});
});
