// StoreSession under the real OpenAI Agents SDK (run(), its Runner and its MemorySession as the
// reference), with a fake model: on the file store and on PostgreSQL.

import { onEveryStore } from "@agent/adapter-testing";
import type { SessionStore, StoredRecord } from "@agent/session-format";
import { type AgentInputItem, MemorySession, run } from "@openai/agents-core";
import { describe, expect, it } from "vitest";
import { FakeModel, TOOL_ROUND, weatherAgent } from "../test/fake-model.mjs";
import { StoreSession } from "./index.js";

async function records(store: SessionStore, id: string): Promise<StoredRecord[]> {
	const out: StoredRecord[] = [];
	for await (const record of store.read(id)) out.push(record);
	return out;
}

/** The context as `agent-sessions context` lists it: role and text of each message. */
async function conversation(store: SessionStore, id: string): Promise<string[]> {
	const { context } = await store.open(id);
	return context.messages.map((message) => {
		const parts = message.content.map((block) =>
			block.type === "text"
				? block.text
				: block.type === "thinking"
					? `(thinking) ${block.thinking}`
					: block.type === "toolCall"
						? `${block.name}(${JSON.stringify(block.arguments)})`
						: `[${block.type}]`,
		);
		return `${message.role}: ${parts.join(" | ")}`;
	});
}

const typeOf = (item: AgentInputItem) => (item as { type?: string }).type ?? "message";

onEveryStore((current) => {
	describe("StoreSession with run()", () => {
		it("keeps exactly the items the SDK keeps in its own MemorySession, over a tool round and a second turn", async () => {
			const { store } = current();
			const reference = new MemorySession();
			const session = new StoreSession({ store, create: { name: "weather" } });
			for (const target of [reference, session]) {
				const agent = weatherAgent(new FakeModel());
				await run(agent, "What is the weather in Oslo?", { session: target });
				await run(agent, "Thanks!", { session: target });
			}
			const items = await session.getItems();
			expect(items.map(typeOf)).toEqual([...TOOL_ROUND, "message", "message"]);
			expect(items).toEqual(await reference.getItems());
			// A new StoreSession on the same id (as a new process makes it) reads the same.
			const again = new StoreSession({ store, sessionId: await session.getSessionId() });
			expect(await again.getItems()).toEqual(items);
		});

		it("maps a tool round to user, assistant (thinking + tool call), toolResult (with toolName), assistant", async () => {
			const { store } = current();
			const session = new StoreSession({ store });
			const model = new FakeModel();
			const result = await run(weatherAgent(model), "weather in Paris", { session });
			expect(result.finalOutput).toBe("The forecast: sunny in Paris.");
			const id = await session.getSessionId();
			expect(await conversation(store, id)).toEqual([
				"user: weather in Paris",
				'assistant: (thinking) Look up Paris. | weather({"city":"Paris"})',
				"toolResult: sunny in Paris",
				"assistant: The forecast: sunny in Paris.",
			]);
			const { context } = await store.open(id);
			expect(context.messages[2]).toMatchObject({ toolCallId: "call_1", toolName: "weather", isError: false });
			expect(context.messages[1]).toMatchObject({ stopReason: "toolUse" });
			expect((await store.metadata(id)).messageCount).toBe(4);
		});

		it("gives the model the whole history on the next turn, and a streamed run persists the same way", async () => {
			const { store } = current();
			const session = new StoreSession({ store });
			await run(weatherAgent(new FakeModel()), "weather in Rome", { session });
			const model = new FakeModel();
			const streamed = await run(weatherAgent(model), "And now?", { session, stream: true });
			for await (const _event of streamed) {
				// drain
			}
			await streamed.completed;
			expect(streamed.finalOutput).toBe("You said: And now?");
			const input = model.inputs[0] as AgentInputItem[];
			expect(input.map(typeOf)).toEqual([...TOOL_ROUND, "message"]);
			const items = await session.getItems();
			expect(items).toHaveLength(7);
			expect(items.slice(-2)).toMatchObject([
				{ role: "user", content: "And now?" },
				{ role: "assistant", content: [{ type: "output_text", text: "You said: And now?" }] },
			]);
		});

		it("getItems(limit) gives the latest limit items, oldest first; 0 gives none; more than there are gives all", async () => {
			const { store } = current();
			const session = new StoreSession({ store });
			const items: AgentInputItem[] = ["a", "b", "c", "d"].map((text) => ({ role: "user", content: text }));
			await session.addItems(items.slice(0, 2));
			await session.addItems(items.slice(2));
			expect(await session.getItems(2)).toEqual(items.slice(2));
			expect(await session.getItems(0)).toEqual([]);
			expect(await session.getItems(10)).toEqual(items);
			expect(await session.getItems()).toEqual(items);
		});

		it("popItem returns the last item and moves the leaf back; the log keeps it on the abandoned branch", async () => {
			const { store } = current();
			const session = new StoreSession({ store });
			await run(weatherAgent(new FakeModel()), "weather in Lima", { session });
			const id = await session.getSessionId();
			const before = await session.getItems();
			const logged = (await records(store, id)).length;

			const answer = await session.popItem();
			expect(answer).toEqual(before[4]);
			expect(await session.getItems()).toEqual(before.slice(0, 4));
			expect((await conversation(store, id)).at(-1)).toBe("toolResult: sunny in Lima");
			// Into the assistant reply: what stays of it is its reasoning, as its own message.
			expect(await session.popItem()).toEqual(before[3]);
			expect(await session.popItem()).toEqual(before[2]);
			expect(await session.getItems()).toEqual(before.slice(0, 2));
			expect(await conversation(store, id)).toEqual(["user: weather in Lima", "assistant: (thinking) Look up Lima."]);

			const log = await records(store, id);
			expect(log.length).toBeGreaterThan(logged);
			expect(log.slice(0, logged)).toEqual((await records(store, id)).slice(0, logged));
			const kept = log.filter((record) => record.recordType === "message").map((record) => record.seq);
			expect(kept.length).toBeGreaterThanOrEqual(5);
			expect(await session.popItem()).toEqual(before[1]);
			expect(await session.popItem()).toEqual(before[0]);
			expect(await session.popItem()).toBeUndefined();
			expect(await session.getItems()).toEqual([]);
		});

		it("clearSession starts an empty branch: no items, nothing deleted, and the next run starts afresh", async () => {
			const { store } = current();
			const session = new StoreSession({ store });
			await run(weatherAgent(new FakeModel()), "weather in Cairo", { session });
			const id = await session.getSessionId();
			const logged = await records(store, id);
			await session.clearSession();
			expect(await session.getItems()).toEqual([]);
			expect((await store.open(id)).context.messages).toEqual([]);
			const after = await records(store, id);
			expect(after.slice(0, logged.length)).toEqual(logged);
			expect(after.slice(logged.length).map((record) => record.recordType)).toEqual(["leaf_change"]);
			await session.clearSession(); // nothing to clear: nothing written
			expect(await records(store, id)).toHaveLength(after.length);

			const model = new FakeModel();
			await run(weatherAgent(model), "hello", { session });
			expect(model.inputs[0]).toEqual([{ type: "message", role: "user", content: "hello" }]);
			expect(await session.getItems()).toHaveLength(2);
		});

		it("two concurrent popItem calls never return the same item", async () => {
			const { store } = current();
			const first = new StoreSession({ store });
			await first.addItems(["a", "b", "c"].map((text) => ({ role: "user", content: text })));
			const second = new StoreSession({ store, sessionId: await first.getSessionId() });
			const popped = await Promise.all([first.popItem(), second.popItem(), first.popItem()]);
			expect(popped.map((item) => (item as { content: string }).content).sort()).toEqual(["a", "b", "c"]);
			expect(await first.getItems()).toEqual([]);
		});

		it("keeps bytes (a Uint8Array in a tool's output) and every field as given", async () => {
			const { store } = current();
			const session = new StoreSession({ store });
			const bytes = new Uint8Array([0, 1, 2, 250, 255]);
			const items: AgentInputItem[] = [
				{ type: "message", role: "system", content: "be terse" },
				{
					type: "function_call",
					callId: "c1",
					name: "shot",
					arguments: "not json",
					providerData: { nested: [1, { a: null }] },
				},
				{
					type: "function_call_result",
					callId: "c1",
					name: "shot",
					status: "completed",
					output: { type: "image", image: { data: bytes, mediaType: "image/png" } },
				},
			];
			await session.addItems(items);
			const back = await session.getItems();
			expect(back).toEqual(items);
			expect((back[2] as { output: { image: { data: unknown } } }).output.image.data).toBeInstanceOf(Uint8Array);
			const id = await session.getSessionId();
			// A system message is kept, but is no message of ours; unparsable arguments are kept as text.
			expect(await conversation(store, id)).toEqual(['assistant: shot({"input":"not json"})', "toolResult: [image]"]);
		});

		it("an image given by URL is noted in the message cut on whole characters (an emoji across the cut once made the append fail)", async () => {
			const { store } = current();
			const session = new StoreSession({ store });
			const url = `https://example.com/${"a".repeat(179)}😀.png`;
			const items: AgentInputItem[] = [
				{ type: "message", role: "user", content: [{ type: "input_image", image: url, detail: "auto" }] },
			];
			await session.addItems(items);
			expect(await session.getItems()).toEqual(items);
			const id = await session.getSessionId();
			expect(await conversation(store, id)).toEqual([`user: [image: https://example.com/${"a".repeat(179)}]`]);
		});

		it("continues a session it did not write: messages without items give the items they stand for", async () => {
			const { store } = current();
			const { id } = await store.create({ name: "from the runtime" });
			await store.append(id, [
				{ recordType: "message", role: "user", content: [{ type: "text", text: "hi" }] },
				{
					recordType: "message",
					role: "assistant",
					content: [
						{ type: "text", text: "Checking." },
						{ type: "toolCall", id: "t1", name: "weather", arguments: { city: "Oslo" } },
					],
				},
				{
					recordType: "message",
					role: "toolResult",
					toolCallId: "t1",
					toolName: "weather",
					isError: false,
					content: [{ type: "text", text: "rain" }],
				},
			]);
			const session = new StoreSession({ store, sessionId: id });
			expect(await session.getItems()).toEqual([
				{ type: "message", role: "user", content: "hi" },
				{
					type: "message",
					role: "assistant",
					status: "completed",
					content: [{ type: "output_text", text: "Checking." }],
				},
				{ type: "function_call", callId: "t1", name: "weather", arguments: '{"city":"Oslo"}', status: "completed" },
				{ type: "function_call_result", callId: "t1", name: "weather", status: "completed", output: "rain" },
			]);
			const model = new FakeModel();
			const result = await run(weatherAgent(model), "so?", { session });
			expect(result.finalOutput).toBe("You said: so?");
			expect(model.inputs[0]).toHaveLength(5);
		});

		it("bad input is refused before anything is written, naming the item and the field", async () => {
			const { store } = current();
			const session = new StoreSession({ store });
			await session.addItems([{ role: "user", content: "kept" }]);
			const id = await session.getSessionId();
			const bad = [
				{ role: "user", content: [{ type: "input_text", text: "x", extra: () => 1 }] },
			] as unknown as AgentInputItem[];
			await expect(session.addItems(bad)).rejects.toMatchObject({
				code: "INVALID_ARGUMENT",
				message: expect.stringMatching(/^@agent\/openai-agents: item 0 holds a function at content\.0\.extra/),
			});
			expect(await session.getItems()).toEqual([{ role: "user", content: "kept" }]);
			expect(() => new StoreSession({} as never)).toThrow(/needs a store/);
			expect((await records(store, id)).length).toBe(2);
		});

		it("a session is created on first write (with the given options), not by reading", async () => {
			const { store } = current();
			const session = new StoreSession({ store, create: { name: "lazy", identityKey: "chat:7" } });
			expect(await session.getItems()).toEqual([]);
			expect(await session.popItem()).toBeUndefined();
			expect((await store.list({ search: "lazy" })).sessions).toEqual([]);
			await session.addItems([{ role: "user", content: "now" }]);
			const metadata = await store.metadata(await session.getSessionId());
			expect(metadata).toMatchObject({ name: "lazy", identityKey: "chat:7", messageCount: 1 });
		});
	});
});
