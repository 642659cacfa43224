import type { StoredRecord } from "@agent/session-format";
import { afterEach, describe, expect, it } from "vitest";
import { type SessionEvent, SessionEvents, TurnInterruption } from "../src/index.js";
import { TurnSlots } from "../src/turn-slots.js";
import { fauxModel, openRuntime, overflowsOnce, tempHome } from "./helpers.js";

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

/** Resolves once `predicate` holds for an event the runtime emits. */
function eventWhere(
	runtime: Awaited<ReturnType<typeof openRuntime>>,
	predicate: (event: SessionEvent) => boolean,
): Promise<SessionEvent> {
	return new Promise((resolve) => {
		const unsubscribe = runtime.subscribe((event) => {
			if (!predicate(event)) return;
			unsubscribe();
			resolve(event);
		});
	});
}

describe("model calls are events", () => {
	it("every model call of a turn is told as model.started and model.completed, with its stop reason and usage", async () => {
		const home = await tempHome();
		const { resolveModel } = model();
		const runtime = await openRuntime(home, { resolveModel });
		const session = await runtime.create({ model: "faux/faux-small" });
		const events: SessionEvent[] = [];
		runtime.subscribe((event) => events.push(event));
		const { turnId } = await runtime.send(session.id, "hello");
		const started = events.filter((event) => event.type === "model.started");
		const completed = events.filter((event) => event.type === "model.completed");
		expect(started).toEqual([
			{ type: "model.started", sessionId: session.id, turnId, model: "faux/faux-small", call: 1 },
		]);
		expect(completed).toHaveLength(1);
		const end = completed[0];
		if (end?.type !== "model.completed") throw new Error("no model.completed");
		expect(end).toMatchObject({ turnId, call: 1, provider: "faux", stopReason: "stop" });
		expect(end.durationMs).toBeGreaterThanOrEqual(0);
		expect(end.usage?.output).toBeGreaterThan(0);
		expect(end.error).toBeUndefined();
		// In order: the call starts after the turn, and ends before the turn does.
		const types = events.map((event) => event.type);
		expect(types.indexOf("model.started")).toBeGreaterThan(types.indexOf("turn.started"));
		expect(types.indexOf("model.completed")).toBeLessThan(types.indexOf("turn.completed"));
	});

	it("a failed call carries the provider's error, and the call made again after an overflow says it retries", async () => {
		const home = await tempHome();
		const { resolveModel } = model({ chat: overflowsOnce("trigger overflow") });
		const runtime = await openRuntime(home, { resolveModel, compaction: { keepRecentTokens: 10 } });
		const session = await runtime.create({ model: "faux/faux-small" });
		for (let i = 0; i < 4; i++) await runtime.send(session.id, `warm up ${i} ${"x".repeat(200)}`);
		const events: SessionEvent[] = [];
		runtime.subscribe((event) => events.push(event));
		await runtime.send(session.id, "trigger overflow");
		const calls = events.filter((event) => event.type === "model.started" || event.type === "model.completed");
		expect(calls.map((event) => [event.type, "call" in event ? event.call : 0])).toEqual([
			["model.started", 1],
			["model.completed", 1],
			["model.started", 2],
			["model.completed", 2],
		]);
		const [, failed, retried, answered] = calls;
		expect(failed?.type === "model.completed" && failed.stopReason).toBe("error");
		expect(failed?.type === "model.completed" && failed.error?.message).toMatch(/prompt is too long/);
		expect(retried?.type === "model.started" && retried.retryOf).toBe("context_overflow");
		expect(answered?.type === "model.completed" && answered.stopReason).toBe("stop");
	});
});

describe("a turn stopped by an interruption (its process stopping) is recorded as interrupted", () => {
	it("the running turn's record says interrupted, and the turns it stopped in the queue are each recorded: user message, aborted reply, turn record", async () => {
		const home = await tempHome();
		const { resolveModel } = model({ tokensPerSecond: 20 });
		const runtime = await openRuntime(home, { resolveModel });
		const session = await runtime.create({ model: "faux/faux-small" });
		await runtime.send(session.id, "first, so that the session is written");
		const stopping = new AbortController();
		const told: SessionEvent[] = [];
		runtime.subscribe((event) => told.push(event));
		const streaming = eventWhere(runtime, (event) => event.type === "turn.delta");
		const turns = ["running one", "queued two", "queued three"].map((text) =>
			runtime.enqueue(session.id, `${text}: tell me a long story about the sea`, { signal: stopping.signal }),
		);
		await Promise.all(turns.map((turn) => turn.accepted));
		await streaming;
		stopping.abort(new TurnInterruption("the server is shutting down"));
		for (const turn of turns) await expect(turn.done).rejects.toMatchObject({ code: "ABORTED" });
		await runtime.idle();

		const records = await allRecords(runtime, session.id);
		const turnRecords = records.filter((record) => record.recordType === "turn");
		expect(turnRecords.map((record) => record.recordType === "turn" && [record.turnId, record.outcome])).toEqual([
			[turnRecords[0]?.recordType === "turn" ? turnRecords[0].turnId : "", "completed"],
			...turns.map((turn) => [turn.turnId, "interrupted"]),
		]);
		// Each queued one: its question, then an aborted reply, then its turn record.
		for (const [index, text] of [
			[2, "queued two"],
			[3, "queued three"],
		] as const) {
			const turnRecord = turnRecords[index];
			if (turnRecord?.recordType !== "turn") throw new Error("missing turn record");
			const own = records.filter((record) => record.seq >= (turnRecord.firstSeq ?? 0) && record.seq <= turnRecord.seq);
			expect(own.map((record) => (record.recordType === "message" ? record.role : record.recordType))).toEqual([
				"user",
				"assistant",
				"turn",
			]);
			const question = own[0];
			expect(question?.recordType === "message" && JSON.stringify(question.content)).toContain(text);
			expect(own[1]?.recordType === "message" && own[1].stopReason).toBe("aborted");
		}
		// Listeners learn of each turn's record before its turn.failed (a log line can say "interrupted").
		for (const turn of turns) {
			const recorded = told.findIndex(
				(event) =>
					event.type === "record.appended" && event.record.recordType === "turn" && event.record.turnId === turn.turnId,
			);
			const failed = told.findIndex((event) => event.type === "turn.failed" && event.turnId === turn.turnId);
			expect(recorded).toBeGreaterThanOrEqual(0);
			expect(recorded).toBeLessThan(failed);
		}
		// Nothing stays in the journal: the next turn records nothing more.
		expect(await runtime.store.acceptedTurns?.(session.id)).toEqual([]);
	});

	it("a user's cancel of a queued turn still records nothing (cancelled is not interrupted)", async () => {
		const home = await tempHome();
		const { resolveModel } = model({ tokensPerSecond: 20 });
		const runtime = await openRuntime(home, { resolveModel });
		const session = await runtime.create({ model: "faux/faux-small" });
		await runtime.send(session.id, "first");
		const streaming = eventWhere(runtime, (event) => event.type === "turn.delta");
		const running = runtime.enqueue(session.id, "a long story please");
		const queued = runtime.enqueue(session.id, "never mind");
		await Promise.all([running.accepted, queued.accepted, streaming]);
		runtime.cancel(session.id, queued.turnId);
		runtime.cancel(session.id, running.turnId);
		await expect(queued.done).rejects.toMatchObject({ code: "ABORTED" });
		await expect(running.done).rejects.toMatchObject({ code: "ABORTED" });
		const outcomes = (await allRecords(runtime, session.id)).flatMap((record) =>
			record.recordType === "turn" ? [record.outcome] : [],
		);
		expect(outcomes).toEqual(["completed", "cancelled"]);
	});
});

describe("a turn the journal could not note", () => {
	it("is told as turn.failed after its turn.queued, so no listener shows it queued forever", async () => {
		const home = await tempHome();
		const { resolveModel } = model();
		const runtime = await openRuntime(home, { resolveModel });
		const session = await runtime.create({ model: "faux/faux-small" });
		await runtime.send(session.id, "first, so that the session is written");
		const failure = Object.assign(new Error("the database went away"), { code: "STORAGE_FAILURE" });
		runtime.store.noteAcceptedTurn = async () => {
			throw failure;
		};
		const events: SessionEvent[] = [];
		runtime.subscribe((event) => events.push(event));
		const turn = runtime.enqueue(session.id, "never accepted");
		await expect(turn.accepted).rejects.toBe(failure);
		await expect(turn.done).rejects.toBe(failure);
		expect(events.map((event) => event.type)).toEqual(["turn.queued", "turn.failed"]);
		expect(events[1]).toMatchObject({ turnId: turn.turnId, error: { code: "STORAGE_FAILURE" } });
	});
});

describe("maxConcurrentTurns", () => {
	it("no more turns run at once than the limit; the others wait as queued and run when a slot frees", async () => {
		const home = await tempHome();
		const { resolveModel } = model({ tokensPerSecond: 20 });
		const runtime = await openRuntime(home, { resolveModel, maxConcurrentTurns: 2 });
		const sessions = await Promise.all([1, 2, 3, 4].map(() => runtime.create({ model: "faux/faux-small" })));
		let running = 0;
		let most = 0;
		runtime.subscribe((event) => {
			if (event.type === "turn.started") most = Math.max(most, ++running);
			if (event.type === "turn.completed" || event.type === "turn.failed") running--;
		});
		const results = await Promise.all(
			sessions.map((session) => runtime.send(session.id, "a story long enough to overlap with the others")),
		);
		expect(results).toHaveLength(4);
		expect(most).toBe(2);
	});

	it("TurnSlots: a turn whose signal aborts while it waits goes on at once without a slot", async () => {
		const slots = new TurnSlots(1);
		let release = () => {};
		const holding = slots.run(() => new Promise<void>((resolve) => (release = resolve)));
		const waiting = new AbortController();
		let ran = false;
		const second = slots.run(async () => {
			ran = true;
		}, waiting.signal);
		expect(slots.queued).toBe(1);
		waiting.abort();
		await second;
		expect(ran).toBe(true);
		expect(slots.queued).toBe(0);
		release();
		await holding;
		// The slot the first held is free again.
		await slots.run(async () => {});
	});
});

describe("event origin", () => {
	it("listeners are told whether an event is relayed from another instance", () => {
		const events = new SessionEvents();
		const seen: boolean[] = [];
		events.subscribe((_event, origin) => seen.push(origin.relayed));
		events.emit({ type: "session.deleted", sessionId: "a" });
		events.emit({ type: "session.deleted", sessionId: "a" }, { relayed: true });
		expect(seen).toEqual([false, true]);
	});
});
