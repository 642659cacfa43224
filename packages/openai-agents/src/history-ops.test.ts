// The optional parts of the SDK's Session: transactions, compaction (the SDK's and ours), history
// mutations. Real SDK, fake model, pi-ai's faux provider for our summarizer; file store and PostgreSQL.

import { onEveryStore } from "@agent/adapter-testing";
import type { SessionStore, StoredRecord } from "@agent/session-format";
import { fauxAssistantMessage, registerFauxProvider } from "@mariozechner/pi-ai";
import { type AgentInputItem, MemorySession, RunContext, run, tool } from "@openai/agents-core";
import { afterAll, describe, expect, it } from "vitest";
import { FakeModel, weatherAgent, weatherToolOptions } from "../test/fake-model.mjs";
import { StoreSession } from "./index.js";

async function logLength(store: SessionStore, id: string): Promise<number> {
	let n = 0;
	for await (const _record of store.read(id)) n++;
	return n;
}

async function records(store: SessionStore, id: string): Promise<StoredRecord[]> {
	const out: StoredRecord[] = [];
	for await (const record of store.read(id)) out.push(record);
	return out;
}

const user = (content: string): AgentInputItem => ({ type: "message", role: "user", content });
const reply = (text: string): AgentInputItem => ({
	type: "message",
	role: "assistant",
	status: "completed",
	content: [{ type: "output_text", text }],
});

const SUMMARY = [
	"## Goal\n- Plan a trip",
	"## Progress\n### Done\n- [x] Checked the weather",
	"## Key Decisions\n- **Go by train**",
	"## Next Steps\n1. Book",
	"## Critical Context\n- Oslo is sunny",
].join("\n\n");
const faux = registerFauxProvider({ models: [{ id: "summarizer", contextWindow: 4000, maxTokens: 1000 }] });
afterAll(() => faux.unregister());

onEveryStore((current) => {
	describe("applyHistoryTransaction", () => {
		it("an append replayed twice (also from a new instance, as after a crash) is applied once, like the SDK's MemorySession", async () => {
			const { store } = current();
			const session = new StoreSession({ store });
			const reference = new MemorySession();
			const args = {
				operationId: "op-1",
				transaction: { type: "append_items" as const, items: [user("a"), reply("b")] },
			};
			for (const target of [session, reference]) {
				await target.applyHistoryTransaction(args);
				await target.applyHistoryTransaction(structuredClone(args));
			}
			const id = await session.getSessionId();
			const length = await logLength(store, id);
			await new StoreSession({ store, sessionId: id }).applyHistoryTransaction(structuredClone(args));
			expect(await logLength(store, id)).toBe(length);
			expect(await session.getItems()).toEqual(await reference.getItems());
		});

		it("the same operation id with another transaction fails and changes nothing", async () => {
			const { store } = current();
			const session = new StoreSession({ store });
			await session.applyHistoryTransaction({
				operationId: "op",
				transaction: { type: "append_items", items: [user("a")] },
			});
			const id = await session.getSessionId();
			const length = await logLength(store, id);
			await expect(
				session.applyHistoryTransaction({
					operationId: "op",
					transaction: { type: "append_items", items: [user("b")] },
				}),
			).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("already applied") });
			expect(await logLength(store, id)).toBe(length);
			await expect(
				session.applyHistoryTransaction({ operationId: " ", transaction: { type: "append_items", items: [] } }),
			).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("operationId") });
			await expect(
				session.applyHistoryTransaction({ operationId: "x", transaction: { type: "drop_all" } as never }),
			).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
		});

		it("replace_suffix replaces a matching suffix on a new branch, and refuses one that no longer matches", async () => {
			const { store } = current();
			const session = new StoreSession({ store });
			await session.addItems([user("q"), reply("draft answer")]);
			const id = await session.getSessionId();
			await session.applyHistoryTransaction({
				operationId: "fix",
				transaction: {
					type: "replace_suffix",
					expectedSuffix: [reply("draft answer")],
					replacement: [reply("final answer")],
				},
			});
			expect(await session.getItems()).toEqual([user("q"), reply("final answer")]);
			const texts = (await records(store, id)).flatMap((record) =>
				record.recordType === "message" ? record.content.map((block) => (block.type === "text" ? block.text : "")) : [],
			);
			expect(texts).toEqual(["q", "draft answer", "final answer"]);

			const length = await logLength(store, id);
			await expect(
				session.applyHistoryTransaction({
					operationId: "stale",
					transaction: { type: "replace_suffix", expectedSuffix: [reply("draft answer")], replacement: [] },
				}),
			).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("no longer match") });
			await expect(
				session.applyHistoryTransaction({
					operationId: "too-long",
					transaction: { type: "replace_suffix", expectedSuffix: [user("x"), user("y"), user("z")], replacement: [] },
				}),
			).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
			expect(await logLength(store, id)).toBe(length);
			expect(await session.getItems()).toEqual([user("q"), reply("final answer")]);
		});
	});

	describe("compaction", () => {
		it("replaceHistoryWithCompaction appends our compaction record: the SDK gets its items, the context the summary, the log everything", async () => {
			const { store } = current();
			const session = new StoreSession({ store });
			await run(weatherAgent(new FakeModel()), "weather in Oslo", { session });
			const id = await session.getSessionId();
			const before = await records(store, id);
			const compacted: AgentInputItem[] = [
				{ type: "compaction", encrypted_content: "opaque-blob", id: "cmp_1" },
				user("weather in Oslo"),
			];
			await session.replaceHistoryWithCompaction(compacted);
			expect(await session.getItems()).toEqual(compacted);
			const { context } = await store.open(id);
			expect(context.messages.map((message) => [message.origin, message.role])).toEqual([
				["compaction_summary", "user"],
				["message", "user"],
			]);
			expect(context.compaction?.summary).toContain("OpenAI Responses API compacted");
			expect((await records(store, id)).slice(0, before.length)).toEqual(before);

			const model = new FakeModel();
			await run(weatherAgent(model), "and then?", { session });
			expect((model.inputs[0] as AgentInputItem[]).slice(0, 2)).toEqual(compacted);
			expect(await session.popItem()).toMatchObject({ role: "assistant" });
		});

		it("our summarizer compacts for any pi-ai model: the SDK then sees the summary first, then the kept turns", async () => {
			const { store } = current();
			faux.setResponses(Array.from({ length: 6 }, () => fauxAssistantMessage(SUMMARY)));
			const session = new StoreSession({
				store,
				compaction: { model: faux.getModel(), settings: { keepRecentTokens: 20, reserveTokens: 500 } },
			});
			for (const city of ["Oslo", "Paris", "Rome"])
				await run(weatherAgent(new FakeModel()), `weather in ${city}`, { session });
			const before = await session.getItems();
			const record = await session.compact({ force: true });
			expect(record).toMatchObject({ recordType: "compaction", trigger: "manual" });
			const items = await session.getItems();
			expect(items[0]).toMatchObject({ role: "user", content: expect.stringContaining("## Goal\n- Plan a trip") });
			expect(items.length).toBeLessThan(before.length + 1);
			expect(items.slice(1)).toEqual(before.slice(before.length - (items.length - 1)));
			const id = await session.getSessionId();
			expect((await store.open(id)).context.messages[0]?.origin).toBe("compaction_summary");

			// Popping back past what the compaction kept starts a new root with the summary as a plain message.
			for (let i = 1; i < items.length; i++) await session.popItem();
			expect(await session.getItems()).toEqual([items[0]]);
			expect(await session.popItem()).toEqual(items[0]);
			expect(await session.getItems()).toEqual([]);
		});

		it("the SDK's compaction hook runs our summarizer after a turn once the context is over the threshold", async () => {
			const { store } = current();
			faux.setResponses(Array.from({ length: 6 }, () => fauxAssistantMessage(SUMMARY)));
			const session = new StoreSession({
				store,
				compaction: {
					model: faux.getModel(),
					contextWindow: 700,
					settings: { reserveTokens: 600, keepRecentTokens: 20 },
				},
			});
			await run(weatherAgent(new FakeModel()), "hi", { session });
			const id = await session.getSessionId();
			expect((await store.metadata(id)).compactionCount ?? 0).toBe(0);
			await run(weatherAgent(new FakeModel()), `weather in Oslo ${"and more ".repeat(80)}`, { session });
			expect((await store.metadata(id)).compactionCount).toBe(1);
			expect((await store.open(id)).context.compaction?.trigger).toBe("threshold");
			await expect(new StoreSession({ store }).compact()).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
		});

		it("a run interrupted for an approval resumes from its RunState, the hook compacting in between", async () => {
			const { store } = current();
			faux.setResponses(Array.from({ length: 6 }, () => fauxAssistantMessage(SUMMARY)));
			const session = new StoreSession({
				store,
				compaction: {
					model: faux.getModel(),
					contextWindow: 700,
					settings: { reserveTokens: 600, keepRecentTokens: 5 },
				},
			});
			await session.addItems([user(`plan a trip ${"with details ".repeat(40)}`), reply("Where to?")]);
			const approving = weatherAgent(new FakeModel());
			approving.tools = [tool({ ...weatherToolOptions, needsApproval: true } as unknown as Parameters<typeof tool>[0])];
			let result = await run(approving, "weather in Oslo", { session });
			expect(result.interruptions).toHaveLength(1);
			const id = await session.getSessionId();
			expect((await store.metadata(id)).compactionCount).toBe(1);
			for (const interruption of result.interruptions) result.state.approve(interruption);
			result = await run(approving, result.state, { session });
			expect(result.finalOutput).toBe("The forecast: sunny in Oslo.");
			const items = await session.getItems();
			expect(items[0]).toMatchObject({ role: "user", content: expect.stringContaining(SUMMARY) });
			expect(items.at(-1)).toMatchObject({ role: "assistant", content: [{ text: "The forecast: sunny in Oslo." }] });
			expect((await store.metadata(id)).compactionCount).toBeGreaterThanOrEqual(1);
		});
	});

	describe("a run's view of the history", () => {
		it("a compaction by the SDK's hook belongs to the run it is called in; another writer's append does not", async () => {
			const { store } = current();
			faux.setResponses(Array.from({ length: 6 }, () => fauxAssistantMessage(SUMMARY)));
			const session = new StoreSession({
				store,
				compaction: { model: faux.getModel(), settings: { keepRecentTokens: 5 } },
			});
			await session.addItems([user(`plan a trip ${"with details ".repeat(40)}`), reply("Where to?"), user("Oslo")]);
			const mine = new RunContext();
			await session.getItems(undefined, mine);
			await session.runCompaction({ force: true }, mine);
			await session.addItems([reply("Booked.")], mine);
			expect((await session.getItems()).at(-1)).toEqual(reply("Booked."));

			const theirs = new RunContext();
			await session.getItems(undefined, theirs);
			await new StoreSession({ store, sessionId: await session.getSessionId() }).addItems([user("meanwhile")]);
			await expect(session.addItems([reply("late")], theirs)).rejects.toMatchObject({ code: "SESSION_LOCKED" });
			expect((await session.getItems()).at(-1)).toEqual(user("meanwhile"));
		});
	});

	describe("applyHistoryMutations", () => {
		it("replaces a function call the way the SDK's own helper does, writing the changed part again", async () => {
			const { store } = current();
			const session = new StoreSession({ store });
			const reference = new MemorySession();
			await run(weatherAgent(new FakeModel()), "weather in Oslo", { session });
			await reference.addItems(await session.getItems());
			const mutation = {
				mutations: [
					{
						type: "replace_function_call" as const,
						callId: "call_1",
						replacement: {
							type: "function_call" as const,
							callId: "call_1",
							name: "weather",
							arguments: '{"city":"Bergen"}',
							status: "completed" as const,
						},
					},
				],
			};
			await session.applyHistoryMutations(mutation);
			await reference.applyHistoryMutations(mutation);
			expect(await session.getItems()).toEqual(await reference.getItems());
			const id = await session.getSessionId();
			const { context } = await store.open(id);
			expect(context.messages[1]?.content).toContainEqual({
				type: "toolCall",
				id: "call_1",
				name: "weather",
				arguments: { city: "Bergen" },
			});
			const length = await logLength(store, id);
			await session.applyHistoryMutations(mutation); // already so: nothing to write
			expect(await logLength(store, id)).toBe(length);
		});
	});
});
