// How a thread is stored: each channel value once per version, an array as what it adds, values
// far back written again, and storage that grows with what changes.
import type { SessionStore, StoredRecord } from "@agent/session-format";
import { HumanMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { describe, expect, it } from "vitest";
import { StoreCheckpointer } from "./checkpointer.js";
import { REWRITE_FACTOR } from "./put-plan.js";
import { CHECKPOINT, VALUE } from "./record-data.js";
import { customOf, logBytes, putValues, recordsOf, rootOf, sessionIdOf, temporaryStores } from "./test-store.js";

const setup = temporaryStores();

/** A store that counts the records its readFrom yields. */
function counting(store: SessionStore): { store: SessionStore; read: () => number } {
	let read = 0;
	const counted = Object.create(store) as SessionStore;
	counted.readFrom = (id, fromSeq, options) => {
		const inner = store.readFrom(id, fromSeq, options);
		return (async function* () {
			for await (const record of inner) {
				read++;
				yield record;
			}
		})();
	};
	return { store: counted, read: () => read };
}

describe("storage", () => {
	it("writes an unchanged messages list again when it lies far back, without writing its messages twice", async () => {
		const { store, checkpointer } = setup();
		const messages = [new HumanMessage({ content: "Hello", id: "m1" })];
		let config = await putValues(checkpointer, rootOf("kept"), { messages, n: 0 }, { messages: 1, n: 1 });
		for (let step = 2; step <= 40; step++) {
			await checkpointer.putWrites(config, [["n", "w".repeat(2000)]], `task-${step}`);
			config = await putValues(checkpointer, config, { messages, n: step }, { messages: 1, n: step }, ["n"]);
		}
		const records = await recordsOf(store, await sessionIdOf(store, "kept"));
		expect(customOf(records, VALUE).filter((value) => value.data.channel === "messages").length).toBeGreaterThan(1);
		expect(records.filter((record) => record.recordType === "message")).toHaveLength(1);
		const { context } = await store.open(await sessionIdOf(store, "kept"));
		expect(context.messages.map((message) => message.role)).toEqual(["user"]);
	});

	it("stores a channel version once: a checkpoint that keeps the channel names the record that holds it", async () => {
		const { store, checkpointer } = setup();
		const doc = "a long document ".repeat(100);
		const c1 = await putValues(checkpointer, rootOf("once"), { doc, n: 1 }, { doc: 1, n: 1 });
		const c2 = await putValues(checkpointer, c1, { doc, n: 2 }, { doc: 1, n: 2 }, ["n"]);
		const records = await recordsOf(store, await sessionIdOf(store, "once"));
		const docs = customOf(records, VALUE).filter((value) => value.data.channel === "doc");
		expect(docs).toHaveLength(1);
		const checkpoints = customOf(records, CHECKPOINT).map((c) => c.data.values as Record<string, number>);
		expect(checkpoints.map((values) => values.doc)).toEqual([docs[0]?.seq, docs[0]?.seq]);
		const reader = new StoreCheckpointer({ store });
		expect((await reader.getTuple(c2))?.checkpoint.channel_values).toEqual({ doc, n: 2 });
	});

	it("stores an array as what it adds to the parent's, and reads it back whole", async () => {
		const { store, checkpointer } = setup();
		const c1 = await putValues(checkpointer, rootOf("array"), { list: ["a", "b"] }, { list: 1 });
		const c2 = await putValues(checkpointer, c1, { list: ["a", "b", "c"] }, { list: 2 });
		const c3 = await putValues(checkpointer, c2, { list: ["a", "x"] }, { list: 3 });
		const values = customOf(await recordsOf(store, await sessionIdOf(store, "array")), VALUE);
		expect(
			values.map((v) => [
				v.data.base === undefined ? "whole" : `after ${v.data.keep} of #${v.data.base}`,
				v.data.items,
			]),
		).toEqual([
			["whole", [{ json: "a" }, { json: "b" }]],
			[`after 2 of #${values[0]?.seq}`, [{ json: "c" }]],
			[`after 1 of #${values[1]?.seq}`, [{ json: "x" }]],
		]);
		const reader = new StoreCheckpointer({ store });
		expect((await reader.getTuple(c2))?.checkpoint.channel_values.list).toEqual(["a", "b", "c"]);
		expect((await reader.getTuple(c3))?.checkpoint.channel_values.list).toEqual(["a", "x"]);
	});

	it("grows with what changes: a list that gains an item per step takes linear, not quadratic, space", async () => {
		const { store, checkpointer } = setup();
		let config: RunnableConfig = rootOf("linear");
		const items: string[] = [];
		const sizes: number[] = [];
		for (let step = 1; step <= 300; step++) {
			items.push(`message ${step} `.padEnd(300, "lorem ipsum "));
			config = await putValues(checkpointer, config, { messages: [...items] }, { messages: step });
			if (step === 150 || step === 300) sizes.push(logBytes(store, await sessionIdOf(store, "linear")));
		}
		const [half, full] = sizes as [number, number];
		// Quadratic storage (every checkpoint repeating the list) would be ~4x from 150 to 300 steps.
		expect(full / half).toBeLessThan(2.4);
		// The whole list is written again only when its chain of additions gets long (not every step).
		const values = customOf(await recordsOf(store, await sessionIdOf(store, "linear")), VALUE);
		expect(values.filter((value) => value.data.base === undefined).length).toBeLessThan(8);
		expect((await new StoreCheckpointer({ store }).getTuple(config))?.checkpoint.channel_values.messages).toEqual(
			items,
		);
	});

	it("writes a value again when it lies too far back, so the newest checkpoint reads only the end of the log", async () => {
		const { store, checkpointer } = setup();
		const doc = "the document ".repeat(80);
		let config = await putValues(checkpointer, rootOf("far"), { doc, n: 0 }, { doc: 1, n: 1 });
		for (let step = 2; step <= 120; step++) {
			await checkpointer.putWrites(config, [["n", "w".repeat(2000)]], `task-${step}`);
			config = await putValues(checkpointer, config, { doc, n: step }, { doc: 1, n: step }, ["n"]);
		}
		const sessionId = await sessionIdOf(store, "far");
		const all: StoredRecord[] = await recordsOf(store, sessionId);
		const docs = customOf(all, VALUE).filter((value) => value.data.channel === "doc");
		expect(docs.length).toBeGreaterThan(3);
		// A fresh reader that keeps nothing in memory: building its index reads the log once; the
		// newest checkpoint then reads only records near the end.
		const counted = counting(store);
		const reader = new StoreCheckpointer({ store: counted.store, cacheBytes: 1 });
		await reader.getTuple({ configurable: { thread_id: "far", checkpoint_id: "no such checkpoint" } });
		const afterIndex = counted.read();
		expect(afterIndex).toBe(all.length);
		expect((await reader.getTuple(config))?.checkpoint.channel_values).toEqual({ doc, n: 120 });
		const tail = counted.read() - afterIndex;
		// Each step here writes ~2.2 KB; the document (~1 KB) and n must be within 4x their size.
		expect(tail).toBeLessThanOrEqual(REWRITE_FACTOR * 2 + 4);
		expect(tail).toBeGreaterThan(0);
	});
});
