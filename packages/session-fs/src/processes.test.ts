import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { RecordProblem, StoredRecord } from "@agent/session-format";
import { afterEach, describe, expect, it } from "vitest";
import { WriterProcess } from "./test-children.js";
import { tempStore } from "./test-home.js";

const cleanups: Array<() => Promise<void>> = [];
const children: WriterProcess[] = [];
afterEach(async () => {
	for (const child of children.splice(0)) if (child.process.exitCode === null) await child.kill();
	for (const cleanup of cleanups.splice(0)) await cleanup();
});

function setup(options: { staleLeaseMs?: number } = {}) {
	const handle = tempStore({ staleLeaseMs: options.staleLeaseMs ?? 2000, waitMs: 30_000 });
	cleanups.push(handle.cleanup);
	return handle;
}

function start(task: ConstructorParameters<typeof WriterProcess>[0]): WriterProcess {
	const child = new WriterProcess(task);
	children.push(child);
	return child;
}

async function readWithProblems(store: ReturnType<typeof setup>["store"], id: string) {
	const records: StoredRecord[] = [];
	const problems: RecordProblem[] = [];
	for await (const record of store.read(id, { onProblem: (problem) => problems.push(problem) })) records.push(record);
	return { records, problems };
}

const dataOf = (record: StoredRecord) => (record as { data?: { writer?: string; i?: number } }).data ?? {};

describe("several processes writing one session", () => {
	it("four child processes append to one session: seq 1..N contiguous, each writer's records in its own order", async () => {
		const { store, home } = setup();
		const { id } = await store.create();
		const writers = ["a", "b", "c", "d"].map((writer, n) =>
			start({ home, id, mode: "append", writer, count: 60, batch: n === 3 ? 3 : 1, pad: n * 200 }),
		);
		const exits = await Promise.all(writers.map((writer) => writer.exited));
		for (const [n, exit] of exits.entries()) expect(exit.code, writers[n]?.stderr).toBe(0);
		const { records, problems } = await readWithProblems(store, id);
		expect(problems).toEqual([]);
		const total = 60 * 3 + 180;
		expect(records.map((r) => r.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
		for (const writer of writers) {
			const name = writers.indexOf(writer);
			const mine = records.filter((r) => dataOf(r).writer === "abcd"[name]).map((r) => dataOf(r).i);
			expect(mine).toEqual(Array.from({ length: mine.length }, (_, i) => i));
			// What each writer was told matches what is on disk.
			for (const ack of writer.acks) expect(dataOf(records[ack.seq - 1] as StoredRecord).i).toBe(ack.i);
		}
		const metadata = await store.metadata(id);
		expect(metadata.lastSeq).toBe(total);
		expect((await store.verify(id))[0]?.problems).toEqual([]);
	});

	it("a writer killed with SIGKILL in the middle of appends, again and again: every acknowledged record is there, nothing corrupt is returned, appends go on", async () => {
		const { store, home } = setup();
		const { id } = await store.create();
		const acknowledged = new Map<number, { writer: string; i: number }>();
		const parentRecords = new Map<number, number>();
		for (let round = 0; round < 12; round++) {
			const writer = `w${round}`;
			const child = start({
				home,
				id,
				mode: round % 3 === 0 ? "lease" : "append",
				writer,
				count: 100_000,
				batch: round % 4 === 1 ? 4 : 1,
				pad: (round * 997) % 5000,
				durability: round % 5 === 2 ? "fsync" : "write",
			});
			const stopAfter = 1 + ((round * 37) % 60);
			await child.until(() => child.acks.length >= stopAfter);
			await child.kill();
			expect(child.stderr).toBe("");
			for (const ack of child.acks) acknowledged.set(ack.seq, { writer, i: ack.i });

			const { records, problems } = await readWithProblems(store, id);
			expect(problems.filter((problem) => problem.code !== "TORN_TAIL")).toEqual([]);
			expect(records.map((r) => r.seq)).toEqual(Array.from({ length: records.length }, (_, i) => i + 1));
			for (const [seq, expected] of acknowledged)
				expect(dataOf(records[seq - 1] as StoredRecord)).toMatchObject(expected);
			for (const [seq, parentRound] of parentRecords) {
				expect((records[seq - 1] as { data?: unknown }).data).toEqual({ round: parentRound });
			}
			// The next writer (here: this process) takes over at once and continues the sequence.
			const next = await store.append(id, [{ recordType: "custom", customType: "parent", data: { round } }]);
			expect(next.records[0]?.seq).toBe(records.length + 1);
			parentRecords.set(records.length + 1, round);
		}
		const [report] = await store.verify(id);
		expect(report?.problems).toEqual([]);
		expect(acknowledged.size).toBeGreaterThan(12);
		expect(parentRecords.size).toBe(12);
	}, 180_000);
});

describe("the cross-process lease", () => {
	it("a holder killed with SIGKILL on this host: the next writer takes its lease over without waiting for it to go stale", async () => {
		const { store, home } = setup({ staleLeaseMs: 60_000 });
		const { id } = await store.create();
		const holder = start({ home, id, mode: "hold", staleLeaseMs: 60_000 });
		await holder.until(() => holder.printed("held"));
		const locked = await store.append(id, [{ recordType: "custom", customType: "x" }], { waitMs: 0 }).catch((e) => e);
		expect(locked.code).toBe("SESSION_LOCKED");
		expect(locked.holder.pid).toBe(holder.pid);
		expect(locked.message).toContain(`process ${holder.pid}`);
		await holder.kill();
		const lease = await store.lease(id, { waitMs: 10_000 });
		expect(lease.holder.pid).toBe(process.pid);
		await lease.append([{ recordType: "custom", customType: "after" }]);
		await lease.release();
		expect((await store.metadata(id)).lastSeq).toBe(1);
	});

	it("a dead holder nobody can name: its lease is taken over once stale (staleLeaseMs)", async () => {
		const { store, home } = setup({ staleLeaseMs: 2000 });
		const { id } = await store.create();
		const holder = start({ home, id, mode: "hold", staleLeaseMs: 2000 });
		await holder.until(() => holder.printed("held"));
		await holder.kill();
		// Without its holder entry the lock could belong to anyone, on any host: only staleness frees it.
		const lockDir = store.pathsOf(id).lockDir;
		for (const entry of readdirSync(lockDir)) rmSync(join(lockDir, entry));
		const error = await store.lease(id, { waitMs: 0 }).catch((e) => e);
		expect(error.code).toBe("SESSION_LOCKED");
		expect(error.message).toContain("another process");
		const lease = await store.lease(id, { waitMs: 20_000 });
		await lease.append([{ recordType: "custom", customType: "after" }]);
		await lease.release();
		expect((await store.metadata(id)).lastSeq).toBe(1);
	});

	it("a live holder is never robbed, even long after the stale timeout", async () => {
		const { store, home } = setup({ staleLeaseMs: 2000 });
		const { id } = await store.create();
		const holder = start({ home, id, mode: "hold", staleLeaseMs: 2000 });
		await holder.until(() => holder.printed("held"));
		for (let attempt = 0; attempt < 4; attempt++) {
			await new Promise((resolve) => setTimeout(resolve, 1200));
			const error = await store.append(id, [{ recordType: "custom", customType: "x" }], { waitMs: 0 }).catch((e) => e);
			expect(error.code).toBe("SESSION_LOCKED");
			expect(error.holder?.pid).toBe(holder.pid);
		}
		holder.tell("release");
		await holder.until(() => holder.printed("released"));
		expect((await holder.exited).code).toBe(0);
		const { records } = await store.append(id, [{ recordType: "custom", customType: "mine" }], { waitMs: 0 });
		expect(records[0]?.seq).toBe(1);
	});
});
