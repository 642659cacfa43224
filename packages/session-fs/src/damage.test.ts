import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import type { RecordProblem } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { userMessage, useTempStores } from "./test-home.js";

const setup = useTempStores();

async function threeTurns() {
	const handle = setup();
	const { id } = await handle.store.create();
	for (const text of ["a", "b", "c"]) await handle.store.append(id, [userMessage(text)]);
	return { ...handle, id, paths: handle.store.pathsOf(id) };
}

/** Damages line `index` (0-based) of a log in place, keeping its length. */
function damageLine(path: string, index: number): void {
	const lines = readFileSync(path, "utf8").split("\n");
	lines[index] = `#${(lines[index] as string).slice(1)}`;
	writeFileSync(path, lines.join("\n"));
}

describe("damaged lines: reported where they are, acknowledged by repair, then verify passes", () => {
	it("verify passes again once repair acknowledged a corrupt line (a damage_ack record), and fails again on new damage", async () => {
		const { store, id, paths } = await threeTurns();
		damageLine(paths.log, 1);
		const [before] = await store.verify(id);
		expect(before?.ok).toBe(false);
		expect(before?.problems.map((p) => p.kind)).toEqual([
			"corrupt_line",
			"seq_gap",
			"dangling_parent",
			"metadata_drift",
		]);
		const repaired = await store.repair(id);
		expect(repaired.acknowledged).toBe(1);
		expect(repaired.ok).toBe(true);
		const [after] = await store.verify(id);
		expect(after?.ok).toBe(true);
		expect(after?.problems.map((p) => [p.kind, p.acknowledged])).toEqual([
			["corrupt_line", true],
			["seq_gap", true],
			["dangling_parent", true],
		]);
		// Repairing again acknowledges nothing twice.
		expect((await store.repair(id)).acknowledged).toBeUndefined();
		// A new damaged line is not covered by the old acknowledgement.
		damageLine(paths.log, 2);
		expect((await store.verify(id))[0]?.ok).toBe(false);
	});

	it("a line repaired by hand passes verify once repair rebuilt the metadata", async () => {
		const { store, id, paths } = await threeTurns();
		const good = readFileSync(paths.log, "utf8");
		damageLine(paths.log, 1);
		expect((await store.verify(id))[0]?.ok).toBe(false);
		writeFileSync(paths.log, good);
		expect((await store.verify(id))[0]?.ok).toBe(true);
	});

	it("warnings from a backward read carry the real line number, and a torn tail is reported once", async () => {
		const { store, id, paths } = await threeTurns();
		damageLine(paths.log, 2);
		appendFileSync(paths.log, '{"recordType":"mess');
		const fromOpen: RecordProblem[] = [];
		await store.open(id, { onProblem: (problem) => fromOpen.push(problem) });
		expect(fromOpen.map((p) => [p.code, p.line])).toEqual([
			["TORN_TAIL", 4],
			["INVALID_JSON", 3],
		]);
		const fromTail: RecordProblem[] = [];
		await store.tail(id, 10, { onProblem: (problem) => fromTail.push(problem) });
		expect(fromTail.map((p) => [p.code, p.line])).toEqual([
			["TORN_TAIL", 4],
			["INVALID_JSON", 3],
		]);
		const forwards: RecordProblem[] = [];
		for await (const _ of store.read(id, { onProblem: (problem) => forwards.push(problem) })) {
			// drain
		}
		expect(forwards.map((p) => [p.code, p.line, p.byteOffset])).toEqual(
			fromOpen.map((p) => [p.code, p.line, p.byteOffset]).reverse(),
		);
	});
});

describe("a line longer than the store reads is refused at append and reported when read", () => {
	it("an append whose line exceeds maxLineBytes is refused whole; nothing is written", async () => {
		const { store } = setup({ maxLineBytes: 1000 });
		const { id } = await store.create();
		await store.append(id, [userMessage("small")]);
		await expect(store.append(id, [userMessage("ok"), userMessage("x".repeat(2000))])).rejects.toMatchObject({
			code: "INVALID_RECORD",
			index: 1,
			message: expect.stringMatching(/record 2 of the batch is \d+ bytes as a line, more than the 1000/),
		});
		expect((await store.metadata(id)).lastSeq).toBe(1);
	});

	it("a giant line already in a log is reported (line, offset) and skipped by a store with a lower cap, not decoded", async () => {
		const big = setup();
		const { id } = await big.store.create();
		await big.store.append(id, [userMessage("before"), userMessage("y".repeat(50_000)), userMessage("after")]);
		const { createFileStore } = await import("./store.js");
		const capped = createFileStore({ home: big.home, maxLineBytes: 10_000 });
		const problems: RecordProblem[] = [];
		const records = [];
		for await (const record of capped.read(id, { onProblem: (problem) => problems.push(problem) }))
			records.push(record);
		expect(records.map((record) => record.seq)).toEqual([1, 3]);
		expect(problems).toEqual([
			expect.objectContaining({
				line: 2,
				code: "INVALID_JSON",
				reason: expect.stringMatching(/more than a reader decodes/),
			}),
		]);
	});
});
