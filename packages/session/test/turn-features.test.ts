import fs from "node:fs";
import path from "node:path";
import { isAgentSessionError, type StoredRecord } from "@agent/session-format";
import { fauxAssistantMessage, fauxToolCall, Type } from "@mariozechner/pi-ai";
import { afterEach, describe, expect, it } from "vitest";
import { resolveConfig, type SessionEvent } from "../src/index.js";
import { fauxModel, lastUserText, openRuntime, tempHome } from "./helpers.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

function model(options: Parameters<typeof fauxModel>[0] = {}) {
	const created = fauxModel(options);
	cleanups.push(() => created.faux.unregister());
	return created;
}

type Runtime = Awaited<ReturnType<typeof openRuntime>>;

async function allRecords(runtime: Runtime, id: string): Promise<StoredRecord[]> {
	const out: StoredRecord[] = [];
	for await (const record of runtime.store.read(id)) out.push(record);
	return out;
}

function sessionDirs(home: string): string[] {
	try {
		return fs.readdirSync(path.join(home, "sessions")).filter((name) => !name.startsWith("."));
	} catch {
		return [];
	}
}

/** Resolves at the first streamed delta of a session's turn. */
function firstDelta(runtime: Runtime, sessionId: string): Promise<void> {
	return new Promise((resolve) => {
		const unsubscribe = runtime.subscribe(
			(event) => {
				if (event.type !== "turn.delta") return;
				unsubscribe();
				resolve();
			},
			{ sessionId },
		);
	});
}

describe("deferred sessions", () => {
	it("write nothing until the first reply, then everything at once", async () => {
		const home = await tempHome();
		const { resolveModel } = model();
		const runtime = await openRuntime(home, { resolveModel });
		const events: SessionEvent[] = [];
		runtime.subscribe((event) => events.push(event));
		const session = await runtime.create({ model: "faux/faux-small", deferred: true });
		expect(sessionDirs(home)).toEqual([]);
		expect(events.some((event) => event.type === "session.created")).toBe(false);
		await runtime.send(session.id, "first words");
		expect(sessionDirs(home)).toEqual([session.id]);
		// Announced once written, before its reply's record.appended.
		const order = events.flatMap((e) =>
			e.type === "session.created" || (e.type === "record.appended" && e.record.recordType === "message")
				? [e.type === "record.appended" && e.record.recordType === "message" ? e.record.role : e.type]
				: [],
		);
		expect(order).toEqual(["user", "session.created", "assistant"]);
		const types = (await allRecords(runtime, session.id)).map((r) => r.recordType);
		expect(types).toEqual(["message", "message", "session_info", "turn"]);
	});

	it("leave no directory and no log when the first turn fails", async () => {
		const home = await tempHome();
		const { resolveModel } = model({
			chat: () => fauxAssistantMessage([], { stopReason: "error", errorMessage: "provider down" }),
		});
		const runtime = await openRuntime(home, { resolveModel });
		const deleted: string[] = [];
		runtime.subscribe((event) => {
			if (event.type === "session.deleted") deleted.push(event.sessionId);
		});
		const session = await runtime.create({ model: "faux/faux-small", deferred: true });
		await expect(runtime.send(session.id, "hello")).rejects.toThrow(/provider down/);
		expect(sessionDirs(home)).toEqual([]);
		expect(deleted).toEqual([session.id]);
		await expect(runtime.metadata(session.id)).rejects.toMatchObject({ code: "SESSION_NOT_FOUND" });
	});

	it("leave nothing when the first turn is cancelled while the reply streams", async () => {
		const home = await tempHome();
		const { resolveModel } = model({ tokensPerSecond: 20, chat: () => fauxAssistantMessage("word ".repeat(400)) });
		const runtime = await openRuntime(home, { resolveModel });
		const session = await runtime.create({ model: "faux/faux-small", deferred: true });
		const turn = runtime.enqueue(session.id, "hello");
		await firstDelta(runtime, session.id);
		expect(runtime.cancel(session.id)).toBe(turn.turnId);
		await expect(turn.done).rejects.toSatisfy((error) => isAgentSessionError(error, "ABORTED"));
		expect(sessionDirs(home)).toEqual([]);
	});
});

describe("deferred sessions written out by another operation", () => {
	it("are ordinary sessions from then on: a failed turn keeps them and their failed reply", async () => {
		const home = await tempHome();
		const { resolveModel } = model({
			chat: () => fauxAssistantMessage([], { stopReason: "error", errorMessage: "provider down" }),
		});
		const runtime = await openRuntime(home, { resolveModel });
		const session = await runtime.create({ model: "faux/faux-small", deferred: true });
		await runtime.rename(session.id, "named first");
		expect(sessionDirs(home)).toEqual([session.id]);
		await expect(runtime.send(session.id, "hello")).rejects.toThrow(/stored with its error/);
		expect(sessionDirs(home)).toEqual([session.id]);
		const roles = (await allRecords(runtime, session.id)).flatMap((r) => (r.recordType === "message" ? [r.role] : []));
		expect(roles).toEqual(["user", "assistant"]);
	});
});

describe("cancelling a turn", () => {
	it("stops the running turn, records it as cancelled, and the session goes on", async () => {
		const home = await tempHome();
		const { resolveModel } = model({
			tokensPerSecond: 20,
			chat: (context) => fauxAssistantMessage(lastUserText(context) === "long" ? "word ".repeat(400) : "short reply"),
		});
		const runtime = await openRuntime(home, { resolveModel });
		const session = await runtime.create({ model: "faux/faux-small" });
		const turn = runtime.enqueue(session.id, "long");
		await firstDelta(runtime, session.id);
		expect(runtime.runningTurn(session.id)).toBe(turn.turnId);
		expect(runtime.cancel(session.id, "no-such-turn")).toBeUndefined();
		expect(runtime.cancel(session.id, turn.turnId)).toBe(turn.turnId);
		await expect(turn.done).rejects.toSatisfy((error) => isAgentSessionError(error, "ABORTED"));
		expect(runtime.runningTurn(session.id)).toBeUndefined();
		const next = await runtime.send(session.id, "again");
		expect(next.records.some((r) => r.recordType === "message" && r.role === "assistant")).toBe(true);
		const turns = (await allRecords(runtime, session.id)).flatMap((r) => (r.recordType === "turn" ? [r] : []));
		expect(turns.map((t) => t.outcome)).toEqual(["cancelled", "completed"]);
		expect(turns[0]?.turnId).toBe(turn.turnId);
	});
});

describe("cancelling a queued turn", () => {
	it("ends it before it starts: nothing of it is written", async () => {
		const home = await tempHome();
		const { resolveModel } = model({ tokensPerSecond: 20, chat: () => fauxAssistantMessage("word ".repeat(200)) });
		const runtime = await openRuntime(home, { resolveModel });
		const session = await runtime.create({ model: "faux/faux-small" });
		const running = runtime.enqueue(session.id, "first");
		const queued = runtime.enqueue(session.id, "second, never sent");
		expect(queued.position).toBe(1);
		expect(runtime.cancel(session.id, queued.turnId)).toBe(queued.turnId);
		await expect(queued.done).rejects.toSatisfy((error) => isAgentSessionError(error, "ABORTED"));
		await running.done;
		const texts = (await allRecords(runtime, session.id)).flatMap((r) =>
			r.recordType === "message" && r.role === "user"
				? [r.content.map((b) => (b.type === "text" ? b.text : "")).join("")]
				: [],
		);
		expect(texts).toEqual(["first"]);
	});
});

describe("uptime", () => {
	it("adds each turn's active time as a turn record, which a lost metadata.json does not lose", async () => {
		const home = await tempHome();
		const { resolveModel } = model();
		const runtime = await openRuntime(home, { resolveModel });
		const session = await runtime.create({ model: "faux/faux-small" });
		await runtime.send(session.id, "one");
		await runtime.send(session.id, "two");
		const metadata = await runtime.metadata(session.id);
		const turns = (await allRecords(runtime, session.id)).flatMap((r) => (r.recordType === "turn" ? [r] : []));
		expect(turns).toHaveLength(2);
		const total = turns.reduce((sum, t) => sum + t.durationMs, 0) / 1000;
		expect(metadata.uptimeSeconds).toBeGreaterThan(0);
		expect(metadata.uptimeSeconds).toBeCloseTo(total, 6);
		fs.rmSync(path.join(home, "sessions", session.id, "metadata.json"));
		fs.rmSync(path.join(home, "cache"), { recursive: true, force: true });
		const reopened = await openRuntime(home, { resolveModel });
		expect((await reopened.metadata(session.id)).uptimeSeconds).toBeCloseTo(total, 6);
	});
});

describe("identity-keyed sessions", () => {
	it("continues the identity's latest session and creates one, only one, when there is none", async () => {
		const home = await tempHome();
		const { resolveModel } = model();
		const runtime = await openRuntime(home, { resolveModel });
		const [a, b] = await Promise.all([
			runtime.enqueueForIdentity("slack:C1:U1", "hi", { model: "faux/faux-small" }),
			runtime.enqueueForIdentity("slack:C1:U1", "again", { model: "faux/faux-small" }),
		]);
		await Promise.all([a.done, b.done]);
		expect(a.sessionId).toBe(b.sessionId);
		expect([a.created, b.created]).toEqual([true, false]);
		const other = await runtime.enqueueForIdentity("slack:C1:U2", "me too", { model: "faux/faux-small" });
		await other.done;
		expect(other.sessionId).not.toBe(a.sessionId);
		const listed = await runtime.list({ identityKey: "slack:C1:U1" });
		expect(listed.sessions.map((s) => s.id)).toEqual([a.sessionId]);
		expect(listed.sessions[0]?.identityKey).toBe("slack:C1:U1");
		expect(listed.sessions[0]?.messageCount).toBe(4);
	});
});

describe("thinking level", () => {
	it("records a change and passes the path's level to the model as pi-ai's reasoning option", async () => {
		const home = await tempHome();
		const { resolveModel, chatOptions } = model();
		const runtime = await openRuntime(home, { resolveModel });
		const session = await runtime.create({ model: "faux/faux-small" });
		await runtime.send(session.id, "plain");
		await runtime.send(session.id, "think hard", { thinkingLevel: "high" });
		await runtime.send(session.id, "still thinking");
		await runtime.send(session.id, "stop thinking", { thinkingLevel: "off" });
		expect(chatOptions.map((o) => o.reasoning)).toEqual([undefined, "high", "high", undefined]);
		const changes = (await allRecords(runtime, session.id)).flatMap((r) =>
			r.recordType === "thinking_level_change" ? [r.thinkingLevel] : [],
		);
		expect(changes).toEqual(["high", "off"]);
		expect(() => runtime.enqueue(session.id, "x", { thinkingLevel: "extreme" })).toThrow(/unknown thinking level/);
	});
});

describe("branch summaries", () => {
	it("summarize the branch left behind into a branch_summary the context then carries", async () => {
		const home = await tempHome();
		const { resolveModel } = model();
		const runtime = await openRuntime(home, { resolveModel });
		const session = await runtime.create({ model: "faux/faux-small" });
		const first = await runtime.send(session.id, "plan A");
		await runtime.send(session.id, "try the risky path");
		const reply = first.records.find((r) => r.recordType === "message" && r.role === "assistant");
		await runtime.branch(session.id, reply?.seq ?? 0, { summarize: true });
		const records = await allRecords(runtime, session.id);
		const summary = records.find((r) => r.recordType === "branch_summary");
		expect(summary?.recordType === "branch_summary" && summary.summary).toContain("## Goal");
		expect(summary?.parentSeq).toBe(reply?.seq);
		const opened = await runtime.open(session.id);
		expect(opened.context.leafSeq).toBe(summary?.seq);
		expect(opened.context.messages.map((m) => m.origin)).toEqual(["message", "message", "branch_summary"]);
		const next = await runtime.send(session.id, "plan B");
		const planB = next.records[0];
		expect(planB?.parentSeq ?? (planB?.seq ?? 0) - 1).toBe(summary?.seq);
		expect((await runtime.open(session.id)).context.messages.map((m) => m.origin)).toContain("branch_summary");
	});

	it("without --summarize only moves the leaf", async () => {
		const home = await tempHome();
		const { resolveModel } = model();
		const runtime = await openRuntime(home, { resolveModel });
		const session = await runtime.create({ model: "faux/faux-small" });
		await runtime.send(session.id, "a");
		await runtime.send(session.id, "b");
		await runtime.branch(session.id, 2);
		expect((await allRecords(runtime, session.id)).some((r) => r.recordType === "branch_summary")).toBe(false);
	});
});

describe("tool outputs: pruning and the tool log", () => {
	function toolRuntime(home: string, prune?: { protectTokens: number; minimumTokens: number }) {
		const created = model({
			chat: (context, call) =>
				context.messages.at(-1)?.role === "toolResult"
					? fauxAssistantMessage("read it")
					: fauxAssistantMessage([fauxToolCall("read", { path: `f${call}` }, { id: `call-${call}` })], {
							stopReason: "toolUse",
						}),
		});
		return openRuntime(home, {
			resolveModel: created.resolveModel,
			...(prune ? { config: { ...resolveConfig(), pruneToolOutputs: prune } } : {}),
			toolExecutor: {
				tools: [{ name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) }],
				execute: async (call) => {
					const file = String((call.arguments as { path: string }).path);
					if (file === "f2") throw new Error("no such file");
					return { content: `${file}: ${"data ".repeat(400)}` };
				},
			},
		}).then((runtime) => ({ runtime, requests: created.requests }));
	}

	it("prunes old tool outputs from what the model gets when configured, and says which", async () => {
		const home = await tempHome();
		const { runtime, requests } = await toolRuntime(home, { protectTokens: 100, minimumTokens: 0 });
		const session = await runtime.create({ model: "faux/faux-small" });
		for (const text of ["one", "two", "three", "four"]) await runtime.send(session.id, text);
		const context = await runtime.modelContext(session.id);
		expect(context.pruned?.seqs.length).toBeGreaterThan(0);
		expect(context.pruned?.tokens).toBeGreaterThan(0);
		const records = await allRecords(runtime, session.id);
		const firstResult = records.find((r) => r.recordType === "message" && r.role === "toolResult");
		expect(context.pruned?.seqs).toContain(firstResult?.seq);
		// The log keeps every output; the last model call got the placeholder.
		expect(JSON.stringify(firstResult)).toContain("data data");
		expect(JSON.stringify(requests.at(-1)?.messages)).toContain("pruned from the context");
		const unpruned = await runtime.open(session.id);
		expect(context.estimatedTokens).toBeLessThan(unpruned.context.estimatedTokens);
	});

	it("does not prune unless configured", async () => {
		const home = await tempHome();
		const { runtime } = await toolRuntime(home);
		const session = await runtime.create({ model: "faux/faux-small" });
		for (const text of ["one", "two", "three"]) await runtime.send(session.id, text);
		expect((await runtime.modelContext(session.id)).pruned).toBeUndefined();
	});

	it("lists every tool execution with its duration and outcome, from the log alone", async () => {
		const home = await tempHome();
		const { runtime } = await toolRuntime(home);
		const session = await runtime.create({ model: "faux/faux-small" });
		for (const text of ["one", "two"]) await runtime.send(session.id, text);
		const log = await runtime.toolLog(session.id);
		expect(log.map((e) => [e.toolName, e.toolCallId, e.outcome])).toEqual([
			["read", "call-0", "ok"],
			["read", "call-2", "error"],
		]);
		for (const entry of log) {
			expect(entry.resultSeq).toBeGreaterThan(entry.callSeq);
			expect(entry.durationMs).toBe(Date.parse(entry.endedAt ?? "") - Date.parse(entry.startedAt));
		}
	});
});

describe("keep_recent_tokens capped by a small window", () => {
	it("warns once, and the plan says so", async () => {
		const home = await tempHome();
		const { resolveModel } = model({ contextWindow: 32_000 });
		const warnings: string[] = [];
		const runtime = await openRuntime(home, {
			resolveModel,
			compaction: { keepRecentTokens: 20_000, reserveTokens: 16_384 },
			onWarning: (message) => warnings.push(message),
		});
		const session = await runtime.create({ model: "faux/faux-small" });
		for (const text of ["a", "b", "c"]) await runtime.send(session.id, text.repeat(20_000));
		const plan = await runtime.planCompaction(session.id);
		expect(plan.keepRecentTokens).toMatchObject({ configured: 20_000, effective: 7808 });
		expect(plan.keepRecentTokens.capped).toMatch(/7808 recent tokens/);
		await runtime.compact(session.id);
		await runtime.compact(session.id);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/keep_recent_tokens 20000 .* 32000-token window/);
	});
});
