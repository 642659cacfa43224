import {
	appendFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StoredRecord } from "@agent/session-format";
import { afterEach, describe, expect, it } from "vitest";
import { backupFileStore } from "./backup.js";
import { createFileStore } from "./store.js";
import { WriterProcess } from "./test-children.js";
import { userMessage, useTempStores } from "./test-home.js";

const setup = useTempStores();
const children: WriterProcess[] = [];
const places: string[] = [];
afterEach(async () => {
	for (const child of children.splice(0)) if (child.process.exitCode === null) await child.kill();
	for (const place of places.splice(0)) rmSync(place, { recursive: true, force: true });
});

/** A directory for backups, removed after the test; the backups go to names inside it that do not exist yet. */
function backupRoot(): string {
	const root = mkdtempSync(join(tmpdir(), "session-fs-backup-"));
	places.push(root);
	return root;
}

async function recordsOf(home: string, id: string): Promise<StoredRecord[]> {
	const records: StoredRecord[] = [];
	for await (const record of createFileStore({ home }).read(id)) records.push(record);
	return records;
}

const iOf = (record: StoredRecord | undefined) =>
	(record as { data?: { writer?: string; i?: number } } | undefined)?.data?.i;

describe("backup of a live file store", () => {
	it("copies each log while writer processes append: a prefix of whole records holding every record acknowledged before the backup started, and verify passes on the copy with no repair", async () => {
		const { home, store } = setup({ staleLeaseMs: 2000, waitMs: 30_000 });
		writeFileSync(join(home, "config.yaml"), "default_model: demo\n");
		const busy = await Promise.all([1, 2, 3].map((n) => store.create({ name: `busy ${n}` })));
		const shared = await store.create({ name: "two writers" });
		const huge = await store.create({ name: "large records" });
		const empty = await store.create({ name: "never written", model: "demo" });
		const archived = await store.create({ name: "old" });
		await store.append(archived.id, [userMessage("hello")]);
		await store.archive(archived.id);
		const journaled = await store.create({ name: "a turn accepted" });
		await store.append(journaled.id, [userMessage("first")]);
		await store.noteAcceptedTurn?.(journaled.id, {
			turnId: "turn-1",
			acceptedAt: new Date().toISOString(),
			content: [{ type: "text", text: "queued" }],
		});
		await store.list(); // a listing snapshot in cache/, which the backup leaves out

		// Large records in batches: a write is often under way when the backup reads a log.
		const writers = [
			...busy.map(
				(session, n) =>
					new WriterProcess({
						home,
						id: session.id,
						mode: "append",
						writer: `w${n}`,
						count: 1e6,
						batch: 1 + n,
						pad: 3000 * (n + 1),
					}),
			),
			new WriterProcess({ home, id: shared.id, mode: "append", writer: "s1", count: 1e6, batch: 2, pad: 5000 }),
			new WriterProcess({ home, id: shared.id, mode: "append", writer: "s2", count: 1e6, batch: 1, pad: 700 }),
			// Records of 500 KB: their write(2) is now and then caught half done.
			new WriterProcess({ home, id: huge.id, mode: "append", writer: "h", count: 60, batch: 1, pad: 500_000 }),
		];
		children.push(...writers);
		await Promise.all(writers.map((writer) => writer.until(() => writer.acks.length >= 20)));

		const root = backupRoot();
		for (let round = 0; round < 3; round++) {
			const acknowledged = writers.map((writer) => [...writer.acks]);
			const to = join(root, `copy-${round}`);
			const report = await backupFileStore({ from: home, to });
			for (const writer of writers) expect(writer.stderr).toBe("");

			expect(report.failed).toEqual([]);
			expect(report.withProblems).toBe(0);
			expect(report.files).toEqual(["config.yaml"]);
			expect(report.skipped.map((skipped) => skipped.name)).toEqual(["cache"]);
			expect(report.sessions.map((copy) => copy.sessionId).sort()).toEqual(
				[...busy, shared, huge, empty, archived, journaled].map((session) => session.id).sort(),
			);
			expect(readFileSync(join(to, "config.yaml"), "utf8")).toBe("default_model: demo\n");
			expect(existsSync(join(to, "cache"))).toBe(false);

			// verify passes on the copy as it is: no repair, no metadata drift.
			const copy = createFileStore({ home: to });
			const reports = await copy.verify();
			expect(reports.filter((verified) => !verified.ok || verified.problems.length > 0)).toEqual([]);

			for (const [n, writer] of writers.entries()) {
				const id = writer.task.id;
				const records = await recordsOf(to, id);
				expect(records.map((record) => record.seq)).toEqual(records.map((_, k) => k + 1));
				for (const ack of acknowledged[n] ?? []) expect(iOf(records[ack.seq - 1])).toBe(ack.i);
			}
			// Each copied log is a prefix of the source log (the source only grows).
			for (const session of [...busy, shared, huge]) {
				const copied = readFileSync(copy.pathsOf(session.id).log);
				const source = readFileSync(store.pathsOf(session.id).log);
				expect(copied.length).toBeGreaterThan(0);
				expect(source.subarray(0, copied.length).equals(copied)).toBe(true);
				expect(copied[copied.length - 1]).toBe(10);
			}
			expect((await copy.metadata(empty.id)).name).toBe("never written");
			expect((await copy.metadata(archived.id)).archivedAt).toBe((await store.metadata(archived.id)).archivedAt);
			expect((await copy.acceptedTurns?.(journaled.id))?.map((turn) => turn.turnId)).toEqual(["turn-1"]);
		}
	}, 120_000);

	it("keeps a last record whose newline had not landed, and leaves out a torn tail, which no writer acknowledged", async () => {
		const { home, store } = setup();
		const whole = await store.create();
		await store.append(whole.id, [userMessage("one")]);
		const line = readFileSync(store.pathsOf(whole.id).log, "utf8").replace('"seq":1', '"seq":2').replace("one", "two");
		appendFileSync(store.pathsOf(whole.id).log, line.trimEnd());
		const torn = await store.create();
		await store.append(torn.id, [userMessage("kept")]);
		const tornText = '{"recordType":"message","schemaVer';
		appendFileSync(store.pathsOf(torn.id).log, tornText);

		const to = join(backupRoot(), "copy");
		const report = await backupFileStore({ from: home, to });
		const byId = new Map(report.sessions.map((copy) => [copy.sessionId, copy]));
		expect(byId.get(whole.id)).toMatchObject({ records: 2, tailLeftOut: 0, ok: true });
		expect(byId.get(torn.id)).toMatchObject({ records: 1, tailLeftOut: tornText.length, ok: true });
		expect((await recordsOf(to, whole.id)).map((record) => record.seq)).toEqual([1, 2]);
		expect(readFileSync(createFileStore({ home: to }).pathsOf(whole.id).log, "utf8").endsWith("}\n")).toBe(true);
		const verified = await createFileStore({ home: to }).verify();
		expect(verified.every((one) => one.ok && one.problems.length === 0)).toBe(true);
	});

	it("copies a damaged line of the source as it is and reports the session, which verify on the source names", async () => {
		const { home, store } = setup();
		const { id } = await store.create();
		await store.append(id, [userMessage("one")]);
		appendFileSync(store.pathsOf(id).log, "{not json}\n");
		await store.append(id, [userMessage("three")]);
		const report = await backupFileStore({ from: home, to: join(backupRoot(), "copy") });
		expect(report.withProblems).toBe(1);
		expect(report.sessions[0]?.problems.map((problem) => problem.kind)).toEqual(["corrupt_line"]);
	});

	it("refuses a target that is not empty or overlaps the store, and reports a session directory that is a symbolic link without reading through it", async () => {
		const { home, store } = setup();
		await store.create();
		const root = backupRoot();
		mkdirSync(join(root, "full"));
		writeFileSync(join(root, "full", "something"), "x");
		await expect(backupFileStore({ from: home, to: join(root, "full") })).rejects.toMatchObject({
			code: "INVALID_ARGUMENT",
			message: expect.stringContaining("not an empty directory"),
		});
		await expect(backupFileStore({ from: home, to: join(home, "backup") })).rejects.toThrow(/overlap/);
		await expect(backupFileStore({ from: join(root, "nothing"), to: join(root, "x") })).rejects.toThrow(
			/holds no file store/,
		);

		const elsewhere = mkdtempSync(join(tmpdir(), "session-fs-elsewhere-"));
		places.push(elsewhere);
		symlinkSync(elsewhere, join(home, "sessions", "01ARZ3NDEKTSV4RRFFQ69G5FAV"));
		mkdirSync(join(root, "empty"));
		const report = await backupFileStore({ from: home, to: join(root, "empty") });
		expect(report.sessions).toHaveLength(1);
		expect(report.failed).toEqual([
			{ sessionId: "01ARZ3NDEKTSV4RRFFQ69G5FAV", message: expect.stringContaining("symbolic link") },
		]);
	});
});
