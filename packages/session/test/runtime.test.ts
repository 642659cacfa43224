import type { MessageRecord, StoredRecord } from "@agent/session-format";
import { fauxAssistantMessage, fauxToolCall, Type } from "@mariozechner/pi-ai";
import { afterEach, describe, expect, it } from "vitest";
import { resolveConfig, type SessionEvent } from "../src/index.js";
import { fauxModel, lastUserText, openRuntime, overflowsOnce, tempHome } from "./helpers.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

function model(options: Parameters<typeof fauxModel>[0] = {}) {
	const created = fauxModel(options);
	cleanups.push(() => created.faux.unregister());
	return created;
}

async function allRecords(runtime: Awaited<ReturnType<typeof openRuntime>>, id: string): Promise<StoredRecord[]> {
	const out: StoredRecord[] = [];
	for await (const record of runtime.store.read(id)) out.push(record);
	return out;
}

function textOf(record: StoredRecord): string {
	if (record.recordType !== "message") return "";
	return record.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

describe("AgentSessions.send", () => {
	it("runs 10 concurrent sends as 10 whole turns, in order, never interleaved (S7.10)", async () => {
		const home = await tempHome();
		const { resolveModel } = model();
		const runtime = await openRuntime(home, { resolveModel });
		const session = await runtime.create({ model: "faux/faux-small" });
		const results = await Promise.all(Array.from({ length: 10 }, (_, i) => runtime.send(session.id, `m${i}`)));
		const messages = (await allRecords(runtime, session.id)).filter(
			(r): r is MessageRecord => r.recordType === "message",
		);
		expect(messages.map((m) => `${m.role}:${textOf(m)}`)).toEqual(
			Array.from({ length: 10 }, (_, i) => [`user:m${i}`, `assistant:reply to m${i}`]).flat(),
		);
		results.forEach((result, i) => {
			const texts = result.records.filter((r) => r.recordType === "message").map(textOf);
			expect(texts).toEqual([`m${i}`, `reply to m${i}`]);
		});
		const metadata = await runtime.metadata(session.id);
		expect(metadata.messageCount).toBe(20);
		expect(metadata.name).toBe("m0");
	});

	it("serializes turns across two runtimes on the same store through the lease", async () => {
		const home = await tempHome();
		const { resolveModel } = model();
		const first = await openRuntime(home, { resolveModel });
		const second = await openRuntime(home, { resolveModel });
		const session = await first.create({ model: "faux/faux-small" });
		await Promise.all([
			...Array.from({ length: 4 }, (_, i) => first.send(session.id, `a${i}`)),
			...Array.from({ length: 4 }, (_, i) => second.send(session.id, `b${i}`)),
		]);
		const messages = (await allRecords(first, session.id)).filter((r) => r.recordType === "message");
		expect(messages).toHaveLength(16);
		for (let i = 0; i < messages.length; i += 2) {
			const user = messages[i] as MessageRecord;
			const reply = messages[i + 1] as MessageRecord;
			expect(user.role).toBe("user");
			expect(textOf(reply)).toBe(`reply to ${textOf(user)}`);
		}
	});

	it("injects ephemeral context into the LLM request and never into the log", async () => {
		const home = await tempHome();
		const { resolveModel, requests } = model();
		const runtime = await openRuntime(home, {
			resolveModel,
			ephemeral: () => [{ content: "ENVIRONMENT: cwd=/srv/app" }],
		});
		const session = await runtime.create({ model: "faux/faux-small", systemPromptOverride: "Be terse." });
		await runtime.send(session.id, "first");
		await runtime.send(session.id, "second", { ephemeral: [{ content: "RECALL: the user likes tea" }] });
		const last = requests.at(-1)!;
		expect(last.systemPrompt).toBe("Be terse.");
		const texts = last.messages.map((m) =>
			m.role === "user"
				? typeof m.content === "string"
					? m.content
					: m.content.map((b) => (b.type === "text" ? b.text : "")).join("")
				: "",
		);
		const lastUser = texts.lastIndexOf("second");
		expect(texts.slice(lastUser - 2, lastUser)).toEqual(["ENVIRONMENT: cwd=/srv/app", "RECALL: the user likes tea"]);
		expect(texts.filter((t) => t.startsWith("ENVIRONMENT"))).toHaveLength(1);
		const log = JSON.stringify(await allRecords(runtime, session.id));
		expect(log).not.toContain("ENVIRONMENT");
		expect(log).not.toContain("RECALL");
	});

	it("runs tool calls through the executor until the model stops calling tools", async () => {
		const home = await tempHome();
		const { resolveModel } = model({
			chat: (context, call) =>
				call === 0
					? fauxAssistantMessage([fauxToolCall("read", { path: "notes.txt" }, { id: "call-1" })], {
							stopReason: "toolUse",
						})
					: fauxAssistantMessage(`the file says: ${JSON.stringify(context.messages.at(-1))}`),
		});
		const executed: string[] = [];
		const runtime = await openRuntime(home, {
			resolveModel,
			toolExecutor: {
				tools: [{ name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) }],
				execute: async (call) => {
					executed.push(`${call.name}:${JSON.stringify(call.arguments)}`);
					return { content: "hello from notes.txt" };
				},
			},
		});
		const session = await runtime.create({ model: "faux/faux-small" });
		const result = await runtime.send(session.id, "what is in notes.txt?");
		expect(executed).toEqual(['read:{"path":"notes.txt"}']);
		const messages = result.records.filter((r): r is MessageRecord => r.recordType === "message");
		expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(messages[2]?.toolCallId).toBe("call-1");
		expect(textOf(messages[2]!)).toBe("hello from notes.txt");
		expect(textOf(messages[3]!)).toContain("hello from notes.txt");
	});

	it("stops a turn that exceeds max_tool_steps with a clear error", async () => {
		const home = await tempHome();
		const { resolveModel } = model({
			chat: (_context, call) =>
				fauxAssistantMessage([fauxToolCall("loop", {}, { id: `c${call}` })], { stopReason: "toolUse" }),
		});
		const runtime = await openRuntime(home, {
			resolveModel,
			config: { ...resolveConfig(), maxToolSteps: 3 },
			toolExecutor: { tools: [], execute: async () => ({ content: "again" }) },
		});
		const session = await runtime.create({ model: "faux/faux-small" });
		await expect(runtime.send(session.id, "go")).rejects.toThrow(/more than 3 tool steps/);
	});
});

describe("compaction in the runtime", () => {
	it("compacts before the model call once the context passes the threshold", async () => {
		const home = await tempHome();
		const { resolveModel, requests } = model({ contextWindow: 3000 });
		const runtime = await openRuntime(home, {
			resolveModel,
			compaction: { reserveTokens: 1000, keepRecentTokens: 600 },
		});
		const session = await runtime.create({ model: "faux/faux-small" });
		const big = (i: number) => `message ${i} ${"lorem ipsum dolor sit amet ".repeat(40)}`;
		let compactions = 0;
		for (let i = 0; i < 8; i++) {
			const result = await runtime.send(session.id, big(i));
			compactions += result.records.filter((r) => r.recordType === "compaction").length;
		}
		expect(compactions).toBeGreaterThan(0);
		const records = await allRecords(runtime, session.id);
		const compaction = records.find((r) => r.recordType === "compaction");
		expect(compaction && "trigger" in compaction ? compaction.trigger : undefined).toBe("threshold");
		const lastChat = requests.filter((r) => !(r.systemPrompt ?? "").includes("summarization")).at(-1)!;
		const firstText = JSON.stringify(lastChat.messages[0]);
		expect(firstText).toContain("The conversation history before this point was compacted into the following summary:");
		const opened = await runtime.open(session.id);
		expect(opened.context.estimatedTokens).toBeLessThan(3000 - 1000);
	});

	it("skips a threshold compaction that cannot make the context smaller, says why, and the turn answers", async () => {
		const home = await tempHome();
		// (window − reserve) is 400 tokens: what is kept plus a summary (up to a quarter of the window) is more than the context.
		const { resolveModel, requests } = model({ contextWindow: 3000 });
		const runtime = await openRuntime(home, {
			resolveModel,
			compaction: { reserveTokens: 2600, keepRecentTokens: 600 },
		});
		const session = await runtime.create({ model: "faux/faux-small" });
		const events: SessionEvent[] = [];
		runtime.subscribe((event) => events.push(event), { sessionId: session.id });
		for (let i = 0; i < 3; i++) {
			const result = await runtime.send(session.id, `message ${i} ${"lorem ipsum dolor sit amet ".repeat(15)}`);
			expect(result.records.some((r) => r.recordType === "message" && r.role === "assistant")).toBe(true);
		}
		const skipped = events.filter((event) => event.type === "compaction.skipped");
		expect(skipped.length).toBeGreaterThan(0);
		expect(skipped[0]).toMatchObject({ trigger: "threshold", reason: expect.stringMatching(/cannot reduce/) });
		expect(events.some((event) => event.type === "compaction.started")).toBe(false);
		expect((await allRecords(runtime, session.id)).some((r) => r.recordType === "compaction")).toBe(false);
		expect(requests.filter((r) => (r.systemPrompt ?? "").includes("summarization"))).toEqual([]);
	});

	it("on a context overflow, compacts (trigger overflow) and retries once", async () => {
		const home = await tempHome();
		const { resolveModel } = model({ chat: overflowsOnce("trigger overflow") });
		const runtime = await openRuntime(home, { resolveModel, compaction: { keepRecentTokens: 10 } });
		const session = await runtime.create({ model: "faux/faux-small" });
		for (let i = 0; i < 4; i++) await runtime.send(session.id, `warm up ${i} ${"x".repeat(200)}`);
		const result = await runtime.send(session.id, "trigger overflow");
		expect(result.records.map((r) => r.recordType)).toEqual(["message", "compaction", "message"]);
		const compaction = result.records[1]!;
		expect(compaction.recordType === "compaction" && compaction.trigger).toBe("overflow");
		expect(textOf(result.records[2]!)).toBe("reply to trigger overflow");
		const errored = (await allRecords(runtime, session.id)).filter(
			(r) => r.recordType === "message" && r.stopReason === "error",
		);
		expect(errored).toHaveLength(0);
	});

	it("compacts on demand with trigger manual", async () => {
		const home = await tempHome();
		const { resolveModel } = model();
		const runtime = await openRuntime(home, { resolveModel, compaction: { keepRecentTokens: 10 } });
		const session = await runtime.create({ model: "faux/faux-small" });
		for (let i = 0; i < 3; i++) await runtime.send(session.id, `turn ${i} ${"y".repeat(100)}`);
		const record = await runtime.compact(session.id);
		expect(record?.recordType).toBe("compaction");
		expect(record?.recordType === "compaction" && record.trigger).toBe("manual");
	});
});

describe("events", () => {
	it("tells UIs about a turn in order: queued, started, appended, deltas, completed", async () => {
		const home = await tempHome();
		const { resolveModel } = model();
		const runtime = await openRuntime(home, { resolveModel });
		const session = await runtime.create({ model: "faux/faux-small" });
		const events: SessionEvent[] = [];
		const unsubscribe = runtime.subscribe((event) => events.push(event), { sessionId: session.id });
		await runtime.send(session.id, "hello there, a message long enough to stream in several deltas");
		unsubscribe();
		const types = events.map((e) => e.type);
		const first = (type: string) => types.indexOf(type as SessionEvent["type"]);
		expect(first("turn.queued")).toBe(0);
		expect(first("turn.started")).toBe(1);
		expect(first("record.appended")).toBeGreaterThan(first("turn.started"));
		expect(first("turn.delta")).toBeGreaterThan(first("record.appended"));
		expect(types.filter((t) => t === "turn.delta").length).toBeGreaterThan(1);
		expect(types.at(-1)).toBe("turn.completed");
		const deltas = events.flatMap((e) => (e.type === "turn.delta" ? [e.delta] : [])).join("");
		expect(deltas).toBe("reply to hello there, a message long enough to stream in several deltas");
		expect(events.every((e) => e.sessionId === session.id)).toBe(true);
	});

	it("reports a failed turn with its error code", async () => {
		const home = await tempHome();
		const { resolveModel } = model({
			chat: () => fauxAssistantMessage([], { stopReason: "error", errorMessage: "provider down" }),
		});
		const runtime = await openRuntime(home, { resolveModel });
		const session = await runtime.create({ model: "faux/faux-small" });
		const events: SessionEvent[] = [];
		runtime.subscribe((event) => events.push(event));
		await expect(runtime.send(session.id, "hi")).rejects.toThrow(/provider down/);
		const failed = events.find((e) => e.type === "turn.failed");
		expect(failed?.type === "turn.failed" && failed.error.message).toMatch(/provider down/);
	});
});

describe("scheduled runs", () => {
	it("creates a session tagged source cron with its job id (S7.7)", async () => {
		const home = await tempHome();
		const { resolveModel } = model();
		const runtime = await openRuntime(home, { resolveModel });
		const result = await runtime.runScheduled("nightly-report", "report please", { model: "faux/faux-small" });
		const metadata = await runtime.metadata(result.sessionId);
		expect(metadata.source).toBe("cron");
		expect(metadata.cronJobId).toBe("nightly-report");
		expect(result.records.filter((r) => r.recordType === "message").map(textOf)).toEqual([
			"report please",
			"reply to report please",
		]);
	});
});

describe("naming", () => {
	it("names an unnamed session from its first user message", async () => {
		const home = await tempHome();
		const { resolveModel } = model();
		const runtime = await openRuntime(home, { resolveModel });
		const session = await runtime.create({ model: "faux/faux-small" });
		await runtime.send(session.id, "Why does the login page time out?\nIt started yesterday.");
		expect((await runtime.metadata(session.id)).name).toBe("Why does the login page time out?");
	});

	it("asks the model for a title when llm_titles is on, and keeps a given name", async () => {
		const home = await tempHome();
		const { resolveModel } = model({
			chat: (context) =>
				lastUserText(context).startsWith("Write a title")
					? fauxAssistantMessage('"Login page timeouts."')
					: fauxAssistantMessage("answer"),
		});
		const runtime = await openRuntime(home, { resolveModel, config: { ...resolveConfig(), llmTitles: true } });
		const session = await runtime.create({ model: "faux/faux-small" });
		await runtime.send(session.id, "Why does the login page time out?");
		expect((await runtime.metadata(session.id)).name).toBe("Login page timeouts");
		const named = await runtime.create({ model: "faux/faux-small", name: "Mine" });
		await runtime.send(named.id, "hello");
		expect((await runtime.metadata(named.id)).name).toBe("Mine");
	});
});

describe("compaction progress and cancel", () => {
	it("compacts a history far past the summarizer's window in chunks, reporting progress; an aborted compaction appends nothing", async () => {
		const home = await tempHome();
		const { resolveModel } = fauxModel({ contextWindow: 8000 });
		const sessions = await openRuntime(home, { resolveModel });
		const { id } = await sessions.create({ model: "faux/faux-small" });
		for (let turn = 1; turn <= 30; turn++) {
			await sessions.store.append(id, [
				{ recordType: "message", role: "user", content: [{ type: "text", text: `question ${turn} `.repeat(300) }] },
				{ recordType: "message", role: "assistant", content: [{ type: "text", text: `answer ${turn} `.repeat(300) }] },
			]);
		}
		const events: Array<{ type: string; messagesDone?: number; messagesTotal?: number; chunks?: number }> = [];
		sessions.events.subscribe((event) => events.push(event), { sessionId: id });

		const controller = new AbortController();
		const aborted = sessions.compact(id, { keepRecentTokens: 1000, signal: controller.signal });
		const unsubscribe = sessions.events.subscribe(
			(event) => {
				if (event.type === "compaction.progress") controller.abort(new Error("stopped by the user"));
			},
			{ sessionId: id },
		);
		await expect(aborted).rejects.toMatchObject({ code: "ABORTED" });
		unsubscribe();
		expect(events.map((e) => e.type)).toContain("compaction.failed");
		const lastSeq = (await sessions.store.metadata(id)).lastSeq;
		expect(lastSeq).toBe(60);

		events.length = 0;
		const record = await sessions.compact(id, { keepRecentTokens: 1000 });
		expect(record?.recordType).toBe("compaction");
		const progress = events.filter((e) => e.type === "compaction.progress");
		expect(progress.length).toBeGreaterThan(3);
		expect(progress.map((e) => e.chunks)).toEqual(
			[...progress.map((e) => e.chunks)].sort((a, b) => (a ?? 0) - (b ?? 0)),
		);
		const last = progress[progress.length - 1];
		expect(last?.messagesDone).toBe(last?.messagesTotal);
		expect(events.find((e) => e.type === "compaction.started")).toMatchObject({ messages: last?.messagesTotal });
	});
});
