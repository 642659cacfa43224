// StoreCheckpointer under the real LangGraph (@langchain/langgraph from npm), offline: a messages
// graph with a tool node and LangChain's fake chat model, on the file store and PostgreSQL.
import { contentText, SessionTree, type StoredRecord } from "@agent/session-format";
import { type BaseMessage, HumanMessage, RemoveMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver, StateSnapshot } from "@langchain/langgraph";
import { Command, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { StoreCheckpointer } from "../src/index.js";
import { recordsOf, sessionIdOf } from "../src/test-store.js";
import { weatherGraph } from "./fixtures/weather-graph.mjs";
import { STORE_KINDS, useStore } from "./stores.js";

const PARIS = "What is the weather in Paris?";
const ROME = "And in Rome?";

/** A message as the tests compare it: its type, text, tool calls and tool call id (not its random id). */
function shown(message: BaseMessage) {
	const calls = (message as { tool_calls?: { name: string; args: unknown }[] }).tool_calls ?? [];
	return [
		message.getType(),
		message.text,
		calls.map((call) => [call.name, call.args]),
		(message as { tool_call_id?: string }).tool_call_id ?? null,
	];
}

/** A state history as the tests compare it: what each checkpoint holds and what runs next, not its (time-based) ids. */
function history(snapshots: StateSnapshot[]) {
	return snapshots.map((snapshot) => ({
		messages: ((snapshot.values as { messages?: BaseMessage[] }).messages ?? []).map(shown),
		next: snapshot.next,
		source: snapshot.metadata?.source,
		step: snapshot.metadata?.step,
		hasParent: snapshot.parentConfig !== undefined,
		tasks: snapshot.tasks.map((task) => [task.name, task.interrupts.map((i) => i.value)]),
	}));
}

async function historyOf(checkpointer: BaseCheckpointSaver, threadId: string) {
	const graph = weatherGraph(checkpointer);
	const snapshots: StateSnapshot[] = [];
	for await (const snapshot of graph.getStateHistory({ configurable: { thread_id: threadId } }))
		snapshots.push(snapshot);
	return history(snapshots);
}

async function converse(checkpointer: BaseCheckpointSaver, threadId: string, questions: string[]) {
	const graph = weatherGraph(checkpointer);
	for (const question of questions) {
		await graph.invoke({ messages: [new HumanMessage(question)] }, { configurable: { thread_id: threadId } });
	}
	return graph;
}

function leavesOf(records: StoredRecord[]): number[] {
	return new SessionTree(records).leaves();
}

describe.each(STORE_KINDS)("StoreCheckpointer under LangGraph (%s store)", (kind) => {
	const opened = useStore(kind);

	it("a messages graph with a tool node gives LangGraph the same state history as its own MemorySaver", async () => {
		const memory = new MemorySaver();
		const ours = new StoreCheckpointer({ store: opened().store });
		await converse(memory, "same-history", [PARIS, ROME]);
		const graph = await converse(ours, "same-history", [PARIS, ROME]);
		const expected = await historyOf(memory, "same-history");
		expect(expected.length).toBeGreaterThan(8);
		expect(await historyOf(ours, "same-history")).toEqual(expected);
		// And from a checkpointer that has never seen the thread (its index built from the log), and
		// from one that keeps nothing in memory (every value read from the log).
		expect(await historyOf(new StoreCheckpointer({ store: opened().store }), "same-history")).toEqual(expected);
		expect(await historyOf(new StoreCheckpointer({ store: opened().store, cacheBytes: 1 }), "same-history")).toEqual(
			expected,
		);
		const state = await graph.getState({ configurable: { thread_id: "same-history" } });
		expect((state.values.messages as BaseMessage[]).map((message) => message.text).at(-1)).toBe(
			"Forecast: sunny in Rome.",
		);
	});

	it("the thread is one session whose message records are the conversation, in one branch", async () => {
		await converse(new StoreCheckpointer({ store: opened().store }), "visible", [PARIS]);
		// The second turn from a checkpointer that reads the first from the log (as a new process would).
		await converse(new StoreCheckpointer({ store: opened().store }), "visible", [ROME]);
		const sessionId = await sessionIdOf(opened().store, "visible");
		const { context, metadata } = await opened().store.open(sessionId);
		expect(metadata.identityKey).toBe("visible");
		expect(metadata.firstMessage).toBe(PARIS);
		expect(context.messages.map((message) => [message.role, contentText(message.content)])).toEqual([
			["user", PARIS],
			["assistant", ""],
			["toolResult", "sunny in Paris"],
			["assistant", "Forecast: sunny in Paris."],
			["user", ROME],
			["assistant", ""],
			["toolResult", "sunny in Rome"],
			["assistant", "Forecast: sunny in Rome."],
		]);
		const call = context.messages[1]?.content.find((block) => block.type === "toolCall");
		expect(call).toMatchObject({ type: "toolCall", name: "weather", arguments: { city: "Paris" } });
		expect(context.messages[2]).toMatchObject({ role: "toolResult", toolName: "weather", isError: false });
		// Pending writes and every checkpoint continue one chain: a run without forks is one branch,
		// and messages read back from the log compare equal to the live ones (nothing written twice).
		const records = await recordsOf(opened().store, sessionId);
		expect(leavesOf(records)).toHaveLength(1);
		expect(records.filter((record) => record.recordType === "message")).toHaveLength(8);
	});

	it("a subgraph's checkpoints keep their own namespace and make no branch; its messages are not written twice", async () => {
		const memory = new MemorySaver();
		const ours = new StoreCheckpointer({ store: opened().store });
		for (const checkpointer of [memory, ours]) {
			await weatherGraph(checkpointer, { subgraph: true }).invoke(
				{ messages: [new HumanMessage(PARIS)] },
				{ configurable: { thread_id: "nested" } },
			);
		}
		const graph = weatherGraph(ours, { subgraph: true });
		const snapshots: StateSnapshot[] = [];
		for await (const snapshot of graph.getStateHistory({ configurable: { thread_id: "nested" } }))
			snapshots.push(snapshot);
		const expected: StateSnapshot[] = [];
		for await (const snapshot of weatherGraph(memory, { subgraph: true }).getStateHistory({
			configurable: { thread_id: "nested" },
		})) {
			expected.push(snapshot);
		}
		expect(history(snapshots)).toEqual(history(expected));
		const namespaces = new Set<string>();
		for await (const tuple of ours.list({ configurable: { thread_id: "nested" } })) {
			namespaces.add(tuple.config.configurable?.checkpoint_ns);
		}
		expect([...namespaces].sort()).toEqual(["", expect.stringMatching(/^tools:/)]);
		const sessionId = await sessionIdOf(opened().store, "nested");
		const records = await recordsOf(opened().store, sessionId);
		expect(leavesOf(records)).toHaveLength(1);
		expect(records.filter((record) => record.recordType === "message")).toHaveLength(4);
	});

	it("an interrupted run resumes from another checkpointer over the same store", async () => {
		const first = weatherGraph(new StoreCheckpointer({ store: opened().store }), { confirm: true });
		const config = { configurable: { thread_id: "interrupted" } };
		const stopped = (await first.invoke({ messages: [new HumanMessage(PARIS)] }, config)) as {
			__interrupt__?: { value: unknown }[];
		};
		expect(stopped.__interrupt__?.[0]?.value).toEqual({ question: "Look up the weather in Paris?" });
		const second = weatherGraph(new StoreCheckpointer({ store: opened().store }), { confirm: true });
		const waiting = await second.getState(config);
		expect(waiting.next).toEqual(["tools"]);
		expect(waiting.tasks[0]?.interrupts[0]?.value).toEqual({ question: "Look up the weather in Paris?" });
		const done = await second.invoke(new Command({ resume: "yes" }), config);
		expect((done.messages as BaseMessage[]).map((message) => message.text)).toEqual([
			PARIS,
			"",
			"sunny in Paris",
			"Forecast: sunny in Paris.",
		]);
		expect((await second.getState(config)).next).toEqual([]);
	});

	it("updateState from an older checkpoint forks: the new branch continues, the old one stays in the log", async () => {
		const checkpointer = new StoreCheckpointer({ store: opened().store });
		const graph = await converse(checkpointer, "forked", [PARIS]);
		const config = { configurable: { thread_id: "forked" } };
		let question: StateSnapshot | undefined;
		for await (const snapshot of graph.getStateHistory(config)) {
			const messages = (snapshot.values as { messages?: BaseMessage[] }).messages ?? [];
			if (messages.length === 1 && snapshot.next[0] === "agent") question = snapshot;
		}
		expect(question).toBeDefined();
		const fork = await graph.updateState((question as StateSnapshot).config, {
			messages: [new HumanMessage("Actually, what about in Oslo?")],
		});
		const done = await graph.invoke(null, fork);
		expect((done.messages as BaseMessage[]).map((message) => message.text)).toEqual([
			PARIS,
			"Actually, what about in Oslo?",
			"",
			"sunny in Oslo",
			"Forecast: sunny in Oslo.",
		]);
		// LangGraph's view: the latest checkpoint descends from the older one it forked.
		const ancestors: string[] = [];
		for await (const snapshot of graph.getStateHistory(config))
			ancestors.push(snapshot.config.configurable?.checkpoint_id);
		expect(ancestors).toContain(question?.config.configurable?.checkpoint_id);
		// The session's view: two branches; the active one is the fork's, the first answer is kept.
		const sessionId = await sessionIdOf(opened().store, "forked");
		const records = await recordsOf(opened().store, sessionId);
		expect(leavesOf(records)).toHaveLength(2);
		const { context } = await opened().store.open(sessionId);
		const texts = context.messages.map((message) => contentText(message.content));
		expect(texts).toContain("Forecast: sunny in Oslo.");
		expect(texts).not.toContain("Forecast: sunny in Paris.");
		const everything = records.flatMap((record) =>
			record.recordType === "message" ? [contentText(record.content)] : [],
		);
		expect(everything).toContain("Forecast: sunny in Paris.");
	});

	it("a removed message leaves the context: the list branches from the last message it keeps", async () => {
		const checkpointer = new StoreCheckpointer({ store: opened().store });
		const graph = await converse(checkpointer, "removed", [PARIS]);
		const config = { configurable: { thread_id: "removed" } };
		const messages = (await graph.getState(config)).values.messages as BaseMessage[];
		const answer = messages.at(-1) as BaseMessage;
		await graph.updateState(config, { messages: [new RemoveMessage({ id: answer.id as string })] }, "agent");
		const sessionId = await sessionIdOf(opened().store, "removed");
		const { context } = await opened().store.open(sessionId);
		expect(context.messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult"]);
		// Removing never deletes: the answer is still in the log.
		const all = (await recordsOf(opened().store, sessionId)).filter((record) => record.recordType === "message");
		expect(all.map((record) => contentText(record.content))).toContain("Forecast: sunny in Paris.");
		expect(((await graph.getState(config)).values.messages as BaseMessage[]).map((m) => m.text)).toEqual([
			PARIS,
			"",
			"sunny in Paris",
		]);
	});
});
