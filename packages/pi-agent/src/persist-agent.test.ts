// persistAgent under pi's real Agent (pi-agent-core) driven by pi-ai's faux provider, with a tool:
// on the file store and on PostgreSQL.
import { onEveryStore } from "@agent/adapter-testing";
import { compact, prepareCompaction } from "@agent/compaction";
import type { SessionStore, StoredRecord } from "@agent/session-format";
import { toPiMessages } from "@agent/session-format/pi";
import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { fauxAssistantMessage, type Message } from "@mariozechner/pi-ai";
import { afterEach, describe, expect, it } from "vitest";
import { answerEcho, answerWeather, faux, weatherAgent } from "../test/faux-agent.mjs";
import { persistAgent } from "./index.js";

async function records(store: SessionStore, id: string): Promise<StoredRecord[]> {
	const out: StoredRecord[] = [];
	for await (const record of store.read(id)) out.push(record);
	return out;
}

const SUMMARY = [
	"## Goal\n- Know the weather",
	"## Progress\n### Done\n- [x] Oslo",
	"## Key Decisions\n- **Ask the tool**",
	"## Next Steps\n1. Paris",
	"## Critical Context\n- Oslo is sunny",
].join("\n\n");

afterEach(() => faux.setResponses([]));

onEveryStore((current) => {
	describe("persistAgent", () => {
		it("appends each message as it ends, before the agent goes on; the session's context is the agent's transcript", async () => {
			const { store } = current();
			const agent = weatherAgent();
			const persisted = await persistAgent(agent, { store, create: { name: "weather" } });
			const seenByTool: string[] = [];
			agent.state.tools = [
				{
					...agent.state.tools[0],
					execute: async (id: string, params: { city: string }) => {
						// The reply that called the tool is already in the log when the tool runs.
						const log = await records(store, persisted.sessionId);
						seenByTool.push(...log.flatMap((record) => (record.recordType === "message" ? [record.role] : [])));
						return { content: [{ type: "text", text: `sunny in ${params.city}` }], details: { id } };
					},
				} as never,
			];
			answerWeather("Oslo");
			await agent.prompt("What is the weather in Oslo?");
			expect(agent.state.errorMessage).toBeUndefined();
			expect(seenByTool).toEqual(["user", "assistant"]);

			const { context, metadata } = await store.open(persisted.sessionId);
			// The context is what the LLM is sent: a tool result's details stay out of it.
			expect(toPiMessages(context)).toEqual(
				agent.state.messages.map(({ details: _, ...message }: Message & { details?: unknown }) => message),
			);
			expect(context.messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
			expect(context.messages[2]).toMatchObject({ toolCallId: "call_Oslo", toolName: "weather", isError: false });
			expect(metadata).toMatchObject({ name: "weather", model: "faux/faux-agent", messageCount: 4 });
			const turn = (await records(store, persisted.sessionId)).find((record) => record.recordType === "turn");
			expect(turn).toMatchObject({ outcome: "completed", model: "faux/faux-agent", firstSeq: 1, lastSeq: 4 });
			await persisted.dispose();
		});

		it("resumes with the same messages, in a new agent, and goes on from them", async () => {
			const { store } = current();
			const first = weatherAgent();
			const { sessionId } = await persistAgent(first, { store });
			answerWeather("Lima");
			await first.prompt("weather in Lima?");

			const second = weatherAgent();
			await persistAgent(second, { store, sessionId });
			expect(second.state.messages).toEqual(first.state.messages);
			const seen: Message[][] = [];
			answerEcho(seen);
			await second.prompt("thanks");
			expect(seen[0]?.slice(0, 4)).toEqual(first.state.messages);
			expect((await store.open(sessionId)).context.messages).toHaveLength(6);
		});

		it("resumes after a compaction: the summary first, then what it kept", async () => {
			const { store } = current();
			const agent = weatherAgent();
			const { sessionId } = await persistAgent(agent, { store });
			for (const city of ["Oslo", "Rome", "Kyiv"]) {
				answerWeather(city);
				await agent.prompt(`weather in ${city}?`);
			}
			const opened = await store.open(sessionId);
			const plan = prepareCompaction(opened.path, { enabled: true, reserveTokens: 500, keepRecentTokens: 30 });
			faux.setResponses(Array.from({ length: 4 }, () => fauxAssistantMessage(SUMMARY)));
			const record = await compact(plan as NonNullable<typeof plan>, { model: faux.getModel() });
			await store.append(sessionId, [record]);
			faux.setResponses([]);

			const resumed = weatherAgent();
			await persistAgent(resumed, { store, sessionId });
			const [summary, ...kept] = resumed.state.messages as Message[];
			expect(summary).toMatchObject({
				role: "user",
				content: [{ type: "text", text: expect.stringContaining(SUMMARY) }],
			});
			expect(kept).toEqual(agent.state.messages.slice(agent.state.messages.length - kept.length));
			expect(kept.length).toBeLessThan(agent.state.messages.length);
			const seen: Message[][] = [];
			answerEcho(seen);
			await resumed.prompt("and now?");
			expect(seen[0]?.[0]).toEqual(summary);
		});

		it("an errored turn and an aborted one are recorded as such: their message, and a failed or cancelled turn", async () => {
			const { store } = current();
			const agent = weatherAgent();
			const { sessionId } = await persistAgent(agent, { store });
			faux.setResponses([fauxAssistantMessage("", { stopReason: "error", errorMessage: "rate limited" })]);
			await agent.prompt("first");
			faux.setResponses([fauxAssistantMessage("a long answer ".repeat(200))]);
			const slow = weatherAgent();
			const abortedSession = await persistAgent(slow, { store });
			const unsubscribe = slow.subscribe((event) => {
				if (event.type === "message_update") slow.abort();
			});
			await slow.prompt("second");
			unsubscribe();

			const log = await records(store, sessionId);
			expect(log.find((record) => record.recordType === "message" && record.role === "assistant")).toMatchObject({
				stopReason: "error",
				errorMessage: "rate limited",
			});
			expect(log.find((record) => record.recordType === "turn")).toMatchObject({
				outcome: "failed",
				error: { code: "MODEL_FAILED", message: "rate limited" },
			});
			const aborted = await records(store, abortedSession.sessionId);
			expect(aborted.find((record) => record.recordType === "message" && record.role === "assistant")).toMatchObject({
				stopReason: "aborted",
			});
			expect(aborted.find((record) => record.recordType === "turn")).toMatchObject({ outcome: "cancelled" });
		});

		it("a run that fails outside the model (the agent's own failure message) is written at its end", async () => {
			const { store } = current();
			const agent = weatherAgent({
				transformContext: async () => {
					throw new Error("context transform broke");
				},
			});
			const { sessionId } = await persistAgent(agent, { store });
			await agent.prompt("hi");
			expect(agent.state.errorMessage).toBe("context transform broke");
			const { context } = await store.open(sessionId);
			expect(toPiMessages(context)).toEqual(agent.state.messages);
			expect(context.messages.at(-1)).toMatchObject({ stopReason: "error", errorMessage: "context transform broke" });
		});

		it("a run finding the session moved by another writer fails with SESSION_LOCKED and writes nothing; reload() goes on", async () => {
			const { store } = current();
			const first = weatherAgent();
			const { sessionId } = await persistAgent(first, { store });
			const second = weatherAgent();
			const other = await persistAgent(second, { store, sessionId });
			answerEcho();
			await first.prompt("one");
			const before = await records(store, sessionId);

			await second.prompt("two");
			expect(second.state.errorMessage).toMatch(/^@agent\/pi-agent: session \w+ was written by someone else/);
			expect(await records(store, sessionId)).toEqual(before);

			await other.reload();
			expect(second.state.messages).toEqual(first.state.messages);
			answerEcho();
			await second.prompt("two");
			expect(second.state.errorMessage).toBeUndefined();
			expect((await store.open(sessionId)).context.messages.map((message) => message.role)).toEqual([
				"user",
				"assistant",
				"user",
				"assistant",
			]);
		});

		it("starts a new session with the messages the agent already has, and keeps the agent's own message types in place", async () => {
			const { store } = current();
			const note = { role: "note", text: "the user prefers Celsius", timestamp: 1 } as unknown as AgentMessage;
			const earlier: Message = { role: "user", content: [{ type: "text", text: "earlier" }], timestamp: 5 };
			const agent = weatherAgent({ initialState: { messages: [earlier] } });
			const { sessionId } = await persistAgent(agent, { store });
			answerEcho();
			await agent.prompt([note, { role: "user", content: "hello", timestamp: Date.now() }]);
			expect(agent.state.messages).toHaveLength(4);

			const resumed = weatherAgent();
			await persistAgent(resumed, { store, sessionId });
			expect(resumed.state.messages).toEqual(
				agent.state.messages.map((message) =>
					(message as Message).role === "user" && typeof (message as Message).content === "string"
						? { ...message, content: [{ type: "text", text: (message as { content: string }).content }] }
						: message,
				),
			);
			const custom = (await records(store, sessionId)).find((record) => record.recordType === "custom");
			expect(custom).toMatchObject({ customType: "pi-agent:message", data: note });
		});

		it("dispose() stops persisting; bad arguments are refused with a clear error", async () => {
			const { store } = current();
			const agent = weatherAgent();
			const persisted = await persistAgent(agent, { store });
			expect(agent.sessionId).toBe(persisted.sessionId);
			await expect(persistAgent(agent, { store })).rejects.toThrow(/persisted already/);
			await persisted.dispose();
			answerEcho();
			await agent.prompt("unsaved");
			expect(await records(store, persisted.sessionId)).toEqual([]);
			await expect(persistAgent({} as never, { store })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
			await expect(persistAgent(agent, {} as never)).rejects.toThrow(/^@agent\/pi-agent: .*needs a store/);
		});
	});
});
