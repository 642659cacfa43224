import type { StoredRecord } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { assistant, compaction, expectCode, readAllRecords, type SuiteContext, textOf, user } from "./fixtures.js";

export function describeTree(context: SuiteContext): void {
	describe("branch, fork, rename, label", () => {
		it("branch moves the leaf; the next append continues from it with parentSeq, and the leaf follows the log again", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [user("a"), assistant("b"), user("c"), assistant("d")]);
			const moved = await store.branch(id, 2);
			expect(moved.leafSeq).toBe(2);
			// The move is a leaf_change record (a side record whose parent is the new leaf), in the log.
			const move = (await store.tail(id, 1))[0];
			expect(move).toMatchObject({ recordType: "leaf_change", seq: 5, parentSeq: 2 });
			expect((await store.open(id)).context.messages.map(textOf)).toEqual(["a", "b"]);
			const { records, metadata } = await store.append(id, [user("c'"), assistant("d'")]);
			expect(records[0]?.parentSeq).toBe(2);
			expect(records[1]?.parentSeq).toBeUndefined();
			expect(metadata.leafSeq).toBeUndefined();
			expect((await store.open(id)).context.messages.map(textOf)).toEqual(["a", "b", "c'", "d'"]);
			expect((await store.open(id, { leafSeq: 4 })).context.messages.map(textOf)).toEqual(["a", "b", "c", "d"]);
			expect((await readAllRecords(store, id)).map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
		});

		it("branch rejects a seq the session does not hold or a side record; branching to the active leaf writes nothing", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [user("a"), user("b")]);
			await store.label(id, 1, "start");
			await expectCode(store.branch(id, 0), "INVALID_ARGUMENT");
			await expectCode(store.branch(id, 4), "INVALID_ARGUMENT");
			await expectCode(store.branch(id, 3), "INVALID_ARGUMENT");
			expect((await store.branch(id, 2)).lastSeq).toBe(3);
			await store.branch(id, 1);
			expect((await store.open(id)).context.messages.map(textOf)).toEqual(["a"]);
			const back = await store.branch(id, 2);
			expect(back.leafSeq).toBe(2);
			expect(back.lastSeq).toBe(5);
			expect((await store.open(id)).context.messages.map(textOf)).toEqual(["a", "b"]);
		});

		it("fork copies the active path into a new session, renumbered 1..n, and leaves the source untouched", async () => {
			const { store } = context;
			const source = await store.create({ systemPromptOverride: "Be kind." });
			await store.append(source.id, [user("a"), assistant("b"), user("c")]);
			await store.branch(source.id, 2);
			await store.append(source.id, [user("c2"), assistant("d2")]);
			const before = await readAllRecords(store, source.id);
			const fork = await store.fork(source.id);
			expect(fork.id).not.toBe(source.id);
			expect(fork.forkedFrom).toEqual({ sessionId: source.id, seq: 6 });
			expect(fork.systemPromptOverride).toBe("Be kind.");
			const records = await readAllRecords(store, fork.id);
			expect(records.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
			expect(records.map(textOf)).toEqual(["a", "b", "c2", "d2"]);
			for (const record of records) expect(record.parentSeq).toBeUndefined();
			expect((await store.open(fork.id)).context.messages.map(textOf)).toEqual(["a", "b", "c2", "d2"]);
			expect(fork.lastSeq).toBe(4);
			expect(fork.messageCount).toBe(4);
			expect(await readAllRecords(store, source.id)).toEqual(before);
		});

		it("fork at a seq takes that path and remaps compaction references; the fork's context equals the source's at that leaf", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [user("1"), assistant("2"), user("3"), assistant("4")]);
			await store.branch(id, 2);
			await store.append(id, [user("x"), assistant("y"), compaction(6, "SUM"), user("z")]);
			await store.append(id, [assistant("tail")]);
			const fork = await store.fork(id, { atSeq: 9, name: "forked" });
			expect(fork.name).toBe("forked");
			expect(fork.forkedFrom).toEqual({ sessionId: id, seq: 9 });
			const records = await readAllRecords(store, fork.id);
			expect(records.map(textOf).filter(Boolean)).toEqual(["1", "2", "x", "y", "z"]);
			const forkCompaction = records.find((r) => r.recordType === "compaction") as StoredRecord & {
				firstKeptSeq: number;
			};
			expect(forkCompaction.seq).toBe(5);
			expect(forkCompaction.firstKeptSeq).toBe(3);
			const sourceContext = (await store.open(id, { leafSeq: 9 })).context;
			const forkContext = (await store.open(fork.id)).context;
			expect(forkContext.messages.map(textOf)).toEqual(sourceContext.messages.map(textOf));
			expect(forkContext.messages.map(textOf)).toEqual([
				"The conversation history before this point was compacted into the following summary:\n<summary>\nSUM\n</summary>",
				"x",
				"y",
				"z",
			]);
			await expectCode(store.fork(id, { atSeq: 42 }), "INVALID_ARGUMENT");
		});

		it("rename appends a session_info record and names the session", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [user("a")]);
			const renamed = await store.rename(id, "Incident 42");
			expect(renamed.name).toBe("Incident 42");
			expect((await store.metadata(id)).name).toBe("Incident 42");
			const last = (await store.tail(id, 1))[0] as StoredRecord & { name?: string };
			expect(last.recordType).toBe("session_info");
			expect(last.name).toBe("Incident 42");
			expect((await store.list({ search: "incident" })).sessions.map((s) => s.id)).toEqual([id]);
		});

		it("label appends a label record for an existing seq, and rejects one that does not exist", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [user("a"), assistant("b")]);
			await store.label(id, 2, "good answer");
			const last = (await store.tail(id, 1))[0] as StoredRecord & { targetSeq?: number; label?: string };
			expect(last.recordType).toBe("label");
			expect(last.targetSeq).toBe(2);
			expect(last.label).toBe("good answer");
			await expectCode(store.label(id, 9, "nope"), "INVALID_ARGUMENT");
			expect((await store.metadata(id)).lastSeq).toBe(3);
		});
	});
}
