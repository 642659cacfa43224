import {
	creationFactsOf,
	isImportTarget,
	type StoredRecord,
	type VerifyProblem,
	type VerifyReport,
} from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { assistant, compaction, custom, type StoreHandle, type SuiteContext, user } from "./fixtures.js";

const AT = "2025-02-11T10:00:00.000Z";
const text = (value: string) => [{ type: "text" as const, text: value }];

/**
 * A log no store writes through append, copied in exactly (appendExact): two seq gaps (3..4, which
 * a damage_ack record of the source's repair explains, and 9), a parent missing in each, a
 * compaction keeping from a record off its path, a record of a type from the future.
 */
const ODD_LOG: StoredRecord[] = [
	{ recordType: "message", schemaVersion: 1, seq: 1, timestamp: AT, role: "user", content: text("a") },
	{ recordType: "message", schemaVersion: 1, seq: 2, timestamp: AT, role: "assistant", content: text("b") },
	{ recordType: "message", schemaVersion: 1, seq: 5, timestamp: AT, parentSeq: 4, role: "user", content: text("c") },
	{
		recordType: "compaction",
		schemaVersion: 1,
		seq: 6,
		timestamp: AT,
		parentSeq: 1,
		firstKeptSeq: 2,
		summary: "S",
		tokensBefore: 10,
		readFiles: [],
		modifiedFiles: [],
	},
	{
		recordType: "opaque",
		schemaVersion: 1,
		seq: 7,
		timestamp: AT,
		declaredType: "future_thing",
		reason: "unknown recordType",
		original: { recordType: "future_thing", schemaVersion: 1, seq: 7, timestamp: AT, payload: 1 },
	},
	{
		recordType: "damage_ack",
		schemaVersion: 1,
		seq: 8,
		timestamp: AT,
		line: 3,
		byteOffset: 0,
		reason: "lost before the copy",
		seqs: { from: 3, to: 4 },
	},
	{ recordType: "message", schemaVersion: 1, seq: 10, timestamp: AT, role: "user", content: text("d") },
];

/** What every store reports for ODD_LOG, in these words and this order (the log checker is one). */
const ODD_LOG_PROBLEMS: Array<Omit<VerifyProblem, "line" | "byteOffset">> = [
	{ kind: "seq_gap", seq: 5, message: "seq 5 follows seq 2: 2 seqs are missing", acknowledged: true },
	{
		kind: "dangling_parent",
		seq: 5,
		message: "seq 5 names parent 4, which is not an earlier readable record",
		acknowledged: true,
	},
	{ kind: "opaque_record", seq: 7, message: 'unknown recordType "future_thing"' },
	{ kind: "seq_gap", seq: 10, message: "seq 10 follows seq 8: 1 seq is missing" },
	{ kind: "dangling_parent", seq: 10, message: "seq 10 names parent 9, which is not an earlier readable record" },
	{
		kind: "compaction_off_path",
		seq: 6,
		message: "compaction 6 keeps from seq 2, which is not on its path; the context keeps nothing from before it",
	},
];

/** The problems of a report, without where they are (a file's line and byte offset; a row's seq). */
function problemsOf(report: VerifyReport | undefined): unknown[] {
	return (report?.problems ?? []).map(({ line: _line, byteOffset: _byteOffset, ...problem }) => problem);
}

export function describeVerify(context: SuiteContext, handle: () => StoreHandle): void {
	describe("verify and repair", () => {
		it("a healthy session verifies clean, alone and among all sessions", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [user("a"), assistant("b"), compaction(2, "S"), user("c")]);
			await store.branch(id, 2);
			await store.append(id, [user("c2")]);
			const other = await store.create();
			const [report] = await store.verify(id);
			expect(report?.sessionId).toBe(id);
			expect(report?.problems).toEqual([]);
			expect(report?.ok).toBe(true);
			expect(report?.records).toBe(6);
			const all = await store.verify();
			expect(new Set(all.map((r) => r.sessionId))).toEqual(new Set([id, other.id]));
			expect(all.every((r) => r.ok)).toBe(true);
		});

		it("repair rebuilds metadata and changes no record", async () => {
			const { store } = context;
			const { id } = await store.create({ name: "keep me" });
			await store.append(id, [user("a"), assistant("b")]);
			const before = await store.metadata(id);
			const report = await store.repair(id);
			expect(report.repaired).toBe(true);
			expect(report.ok).toBe(true);
			const after = await store.metadata(id);
			expect(after).toEqual(before);
		});

		it("an odd log copied in exactly gets the same problems, in the same words, from every store", async () => {
			const { store } = context;
			if (!isImportTarget(store)) return;
			const made = await store.create({ name: "odd" });
			const id = "01JMRZ8X1Q9V5E2H3K4M6N7P8R";
			expect(await store.adoptSession(id, { ...creationFactsOf(await store.metadata(made.id)), id })).toBe(0);
			await store.appendExact(id, ODD_LOG, {
				gaps: [
					{ from: 3, to: 4 },
					{ from: 9, to: 9 },
				],
			});
			const [report] = await store.verify(id);
			expect(problemsOf(report)).toEqual(ODD_LOG_PROBLEMS);
			expect(report?.ok).toBe(false);
			expect(report?.records).toBe(ODD_LOG.length);
			// No damaged line to acknowledge: repair changes nothing the checker sees.
			const repaired = await store.repair(id);
			expect(problemsOf(repaired)).toEqual(ODD_LOG_PROBLEMS);
			expect(repaired.acknowledged).toBeUndefined();
		});

		it("a store whose caches are gone says so in the same words as every store, and repair rebuilds them", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [user("a"), assistant("b")]);
			const dropped = await handle().dropCaches();
			const [report] = await dropped.verify(id);
			expect(problemsOf(report)).toEqual([
				{ kind: "metadata_missing", message: "the metadata cache is missing; repair rebuilds it from the log" },
			]);
			expect((await dropped.repair(id)).ok).toBe(true);
			expect((await dropped.verify(id))[0]?.problems).toEqual([]);
		});

		it("a damaged line in the middle: a corrupt line and the gap it leaves, alike in every store, until repair acknowledges them", async () => {
			const { damage } = handle();
			if (!damage) return;
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [user("a"), custom({ n: 1 }), assistant("b")]);
			await damage(id, 2);
			const [report] = await store.verify(id);
			const [corrupt, ...rest] = problemsOf(report) as Array<{ message: string }>;
			expect(corrupt).toMatchObject({ kind: "corrupt_line" });
			expect(corrupt?.message).toMatch(/^line 2: not valid JSON \(Unexpected token '#'/);
			const gap = { kind: "seq_gap", seq: 3, message: "seq 3 follows seq 1: 1 seq is missing" };
			const parent = {
				kind: "dangling_parent",
				seq: 3,
				message: "seq 3 names parent 2, which is not an earlier readable record",
			};
			expect(rest).toEqual([gap, parent]);
			expect(report?.ok).toBe(false);
			const repaired = await store.repair(id);
			expect(repaired.acknowledged).toBe(1);
			expect(repaired.ok).toBe(true);
			const [after] = await store.verify(id);
			expect(after?.ok).toBe(true);
			expect(problemsOf(after)).toEqual([
				{ ...corrupt, acknowledged: true },
				{ ...gap, acknowledged: true },
				{ ...parent, acknowledged: true },
			]);
		});
	});
}
