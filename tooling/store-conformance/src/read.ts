import { describe, expect, it } from "vitest";
import { collect, expectCode, readAllRecords, type SuiteContext, sessionWith, textOf } from "./fixtures.js";

export function describeRead(context: SuiteContext): void {
	describe("read, readFrom, tail", () => {
		it("read streams every record in log order", async () => {
			const { store } = context;
			const id = await sessionWith(store, ["a", "b", "c", "d"]);
			const records = await readAllRecords(store, id);
			expect(records.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
			expect(records.map(textOf)).toEqual(["a", "b", "c", "d"]);
		});

		it("readFrom(seq) streams the records from seq on, in log order", async () => {
			const { store } = context;
			const id = await sessionWith(store, ["a", "b", "c", "d", "e"]);
			const seqs = async (from: number) => (await collect(store.readFrom(id, from))).map((r) => r.seq);
			expect(await seqs(1)).toEqual([1, 2, 3, 4, 5]);
			expect(await seqs(0)).toEqual([1, 2, 3, 4, 5]);
			expect(await seqs(3)).toEqual([3, 4, 5]);
			expect(await seqs(5)).toEqual([5]);
			expect(await seqs(6)).toEqual([]);
		});

		it("tail(n) returns the last n records in log order", async () => {
			const { store } = context;
			const id = await sessionWith(store, ["a", "b", "c", "d", "e"]);
			expect((await store.tail(id, 0)).map((r) => r.seq)).toEqual([]);
			expect((await store.tail(id, 1)).map((r) => r.seq)).toEqual([5]);
			expect((await store.tail(id, 3)).map(textOf)).toEqual(["c", "d", "e"]);
			expect((await store.tail(id, 50)).map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
			await expectCode(store.tail(id, -1), "INVALID_ARGUMENT");
		});

		it("a reader started before an append sees a consistent prefix; one started after sees it all", async () => {
			const { store } = context;
			const id = await sessionWith(store, ["a", "b"]);
			const before = await readAllRecords(store, id);
			await store.append(id, [{ recordType: "custom", customType: "later" }]);
			const after = await readAllRecords(store, id);
			expect(after.slice(0, before.length)).toEqual(before);
			expect(after.map((r) => r.seq)).toEqual([1, 2, 3]);
		});

		it("metadata() agrees with what the last append returned", async () => {
			const { store } = context;
			const { id } = await store.create();
			const { metadata } = await store.append(id, [{ recordType: "custom", customType: "x", data: { n: 1 } }]);
			expect(await store.metadata(id)).toEqual(metadata);
		});
	});
}
