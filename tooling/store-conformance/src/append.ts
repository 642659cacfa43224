import type { SessionRecord } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import {
	assistant,
	compaction,
	custom,
	expectCode,
	ISO_TIME,
	readAllRecords,
	type SuiteContext,
	textOf,
	user,
} from "./fixtures.js";

export function describeAppend(context: SuiteContext): void {
	describe("append", () => {
		it("assigns seq 1, 2, 3 … without gaps across batches, schemaVersion 1 and a timestamp", async () => {
			const { store } = context;
			const { id } = await store.create();
			const first = await store.append(id, [user("a"), user("b")]);
			const second = await store.append(id, [user("c")]);
			expect(first.records.map((r) => r.seq)).toEqual([1, 2]);
			expect(second.records.map((r) => r.seq)).toEqual([3]);
			for (const record of [...first.records, ...second.records]) {
				expect(record.schemaVersion).toBe(1);
				expect(record.timestamp).toMatch(ISO_TIME);
			}
			expect(second.metadata.lastSeq).toBe(3);
			expect(await readAllRecords(store, id)).toEqual([...first.records, ...second.records]);
		});

		it("keeps a timestamp the caller gives", async () => {
			const { store } = context;
			const { id } = await store.create();
			const { records } = await store.append(id, [user("old", "2023-01-02T03:04:05.000Z")]);
			expect(records[0]?.timestamp).toBe("2023-01-02T03:04:05.000Z");
		});

		it("rejects a batch holding one invalid record with INVALID_RECORD, and writes none of it", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [user("kept")]);
			const bad = { recordType: "message", role: "user", content: [{ type: "text" }] };
			const error = await expectCode(
				store.append(id, [user("lost"), bad as never, user("lost too")]),
				"INVALID_RECORD",
			);
			expect((error as Error & { index?: number }).index).toBe(1);
			await expectCode(store.append(id, [{ recordType: "no-such-type" } as never]), "INVALID_RECORD");
			const records = await readAllRecords(store, id);
			expect(records.map(textOf)).toEqual(["kept"]);
			expect((await store.metadata(id)).lastSeq).toBe(1);
			const next = await store.append(id, [user("next")]);
			expect(next.records[0]?.seq).toBe(2);
		});

		it("S7.12: rejects bare-string content; stored content is always an array of blocks", async () => {
			const { store } = context;
			const { id } = await store.create();
			await expectCode(
				store.append(id, [{ recordType: "message", role: "user", content: "hi" } as never]),
				"INVALID_RECORD",
			);
			await store.append(id, [user("hi"), assistant("hello")]);
			for (const record of await readAllRecords(store, id)) {
				expect(Array.isArray((record as { content?: unknown }).content)).toBe(true);
			}
		});

		it("an empty batch writes nothing", async () => {
			const { store } = context;
			const { id } = await store.create();
			const result = await store.append(id, []);
			expect(result.records).toEqual([]);
			expect(result.metadata.lastSeq).toBe(0);
			expect(await readAllRecords(store, id)).toEqual([]);
		});

		it("S7.4: lastMessageAt and messageCount follow every append", async () => {
			const { store } = context;
			const created = await store.create({ createdAt: "2020-01-01T00:00:00.000Z" });
			const first = await store.append(created.id, [user("a", "2021-01-01T00:00:00.000Z")]);
			expect(first.metadata.messageCount).toBe(1);
			expect(first.metadata.lastMessageAt).toBe("2021-01-01T00:00:00.000Z");
			const second = await store.append(created.id, [
				assistant("b", { timestamp: "2021-01-01T00:00:05.000Z" }),
				custom({ not: "a message" }),
			]);
			expect(second.metadata.messageCount).toBe(2);
			expect(Date.parse(second.metadata.lastMessageAt)).toBeGreaterThanOrEqual(Date.parse("2021-01-01T00:00:05.000Z"));
			const stored = await store.metadata(created.id);
			expect(stored.messageCount).toBe(2);
			expect(stored.lastMessageAt).toBe(second.metadata.lastMessageAt);
		});

		it("lastMessageAt is the latest record time, so an import of old records dates the session truly", async () => {
			const { store } = context;
			const { id } = await store.create({ createdAt: "2022-03-01T00:00:00.000Z" });
			const { metadata } = await store.append(id, [
				user("q", "2022-03-01T10:00:00.000Z"),
				assistant("a", { timestamp: "2022-03-01T10:00:09.000Z" }),
			]);
			expect(metadata.lastMessageAt).toBe("2022-03-01T10:00:09.000Z");
		});

		it("aggregates assistant usage into metrics, in total and per provider/model, and tracks model, thinking level and compactions", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [
				user("q"),
				assistant("a", {
					provider: "anthropic",
					model: "claude",
					usage: {
						input: 100,
						output: 20,
						cacheRead: 5,
						cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.5 },
					},
				}),
				assistant("b", { provider: "openai", model: "gpt", usage: { input: 10, output: 2 } }),
				{ recordType: "thinking_level_change", thinkingLevel: "high" },
				compaction(1, "summary"),
			]);
			const { metadata } = await store.append(id, [
				{ recordType: "model_change", provider: "google", modelId: "gemini" },
			]);
			expect(metadata.metrics?.input).toBe(110);
			expect(metadata.metrics?.output).toBe(22);
			expect(metadata.metrics?.cacheRead).toBe(5);
			expect(metadata.metrics?.cost).toBeCloseTo(0.5);
			expect(metadata.metrics?.turns).toBe(2);
			expect(metadata.metrics?.byModel["anthropic/claude"]?.input).toBe(100);
			expect(metadata.metrics?.byModel["openai/gpt"]?.output).toBe(2);
			expect(metadata.model).toBe("google/gemini");
			expect(metadata.thinkingLevel).toBe("high");
			expect(metadata.compactionCount).toBe(1);
			expect(await store.metadata(id)).toEqual(metadata);
		});

		it("S7.10: concurrent appends to one session are queued, never interleaved", async () => {
			const { store } = context;
			const { id } = await store.create();
			const batches = Array.from({ length: 20 }, (_, b) => [user(`${b}:0`), user(`${b}:1`), user(`${b}:2`)]);
			// A generous wait: this pins the order of queued writers, not how fast a backend drains its queue.
			const results = await Promise.all(batches.map((batch) => store.append(id, batch, { waitMs: 120_000 })));
			for (const [b, result] of results.entries()) {
				const seqs = result.records.map((r) => r.seq);
				expect(seqs[1]).toBe((seqs[0] as number) + 1);
				expect(seqs[2]).toBe((seqs[0] as number) + 2);
				expect(result.records.map(textOf)).toEqual([`${b}:0`, `${b}:1`, `${b}:2`]);
			}
			const records = await readAllRecords(store, id);
			expect(records.map((r) => r.seq)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
			for (let i = 0; i < 60; i += 3) {
				const [batch] = textOf(records[i] as SessionRecord).split(":");
				expect(records.slice(i, i + 3).map(textOf)).toEqual([`${batch}:0`, `${batch}:1`, `${batch}:2`]);
			}
		});

		it("round-trips content exactly: unicode, newlines, quotes, thinking, images, tool calls, large text", async () => {
			const { store } = context;
			const { id } = await store.create();
			const big = "x".repeat(1 << 20);
			const input = [
				user('line one\nline two\r\n\t"quoted" \\ \u2028 \u0000 é 漢字 🎉'),
				{
					recordType: "message",
					role: "assistant",
					content: [
						{ type: "thinking", thinking: "let me think" },
						{
							type: "toolCall",
							id: "tc_1",
							name: "write",
							arguments: { path: "a.ts", nested: { list: [1, "two", null] } },
						},
					],
				},
				{
					recordType: "message",
					role: "toolResult",
					toolCallId: "tc_1",
					toolName: "write",
					isError: false,
					content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }],
				},
				user(big),
			] as const;
			const { records } = await store.append(id, input as never);
			const read = await readAllRecords(store, id);
			expect(read).toEqual(records);
			expect(textOf(read[0] as SessionRecord)).toBe('line one\nline two\r\n\t"quoted" \\ \u2028 \u0000 é 漢字 🎉');
			expect(textOf(read[3] as SessionRecord).length).toBe(big.length);
			expect((read[1] as { content: unknown[] }).content[1]).toEqual(input[1].content[1]);
		});
	});
}
