// StoreCheckpointer's rules beyond LangGraph's suite: pending writes, writers that race, which
// session is a thread, and what bad input gets.
import { isAgentSessionError, SessionTree } from "@agent/session-format";
import { ERROR, INTERRUPT } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { StoreCheckpointer } from "./checkpointer.js";
import { CHECKPOINT } from "./record-data.js";
import { customOf, putValues, recordsOf, rootOf, sessionIdOf, temporaryStores } from "./test-store.js";

const setup = temporaryStores();

async function expectInvalid(promise: Promise<unknown>, mentions: string): Promise<void> {
	const error = await promise.then(
		() => undefined,
		(thrown: unknown) => thrown,
	);
	expect(isAgentSessionError(error, "INVALID_ARGUMENT")).toBe(true);
	expect((error as Error).message).toMatch(/^@agent\/langgraph: /);
	expect((error as Error).message).toContain(mentions);
}

describe("pending writes", () => {
	it("keep the first regular write of a (task, index) and let a special write replace the last", async () => {
		const { checkpointer } = setup();
		const config = await putValues(checkpointer, rootOf("writes"), {}, {});
		await checkpointer.putWrites(
			config,
			[
				["animals", "dog"],
				[ERROR, "first failure"],
			],
			"task",
		);
		await checkpointer.putWrites(
			config,
			[
				["animals", "cat"],
				[ERROR, "second failure"],
			],
			"task",
		);
		await checkpointer.putWrites(config, [[INTERRUPT, { ask: "why?" }]], "task");
		const fresh = new StoreCheckpointer({ store: checkpointer.store });
		for (const reader of [checkpointer, fresh]) {
			// In LangGraph's order: (task path, task id, index), and the special indexes are negative.
			expect((await reader.getTuple(config))?.pendingWrites).toEqual([
				["task", INTERRUPT, { ask: "why?" }],
				["task", ERROR, "second failure"],
				["task", "animals", "dog"],
			]);
		}
	});

	it("write nothing when every write is stored already", async () => {
		const { store, checkpointer } = setup();
		const config = await putValues(checkpointer, rootOf("again"), {}, {});
		await checkpointer.putWrites(config, [["animals", "dog"]], "task");
		const before = (await store.metadata(await sessionIdOf(store, "again"))).lastSeq;
		await checkpointer.putWrites(config, [["animals", "dog"]], "task");
		expect((await store.metadata(await sessionIdOf(store, "again"))).lastSeq).toBe(before);
	});
});

describe("two writers on one thread", () => {
	it("a writer whose view is stale plans again from the log: both checkpoints land, the later one as a branch", async () => {
		const { store } = setup();
		const a = new StoreCheckpointer({ store });
		const b = new StoreCheckpointer({ store });
		const c1 = await putValues(a, rootOf("race"), { n: 1 }, { n: 1 });
		expect((await b.getTuple(rootOf("race")))?.checkpoint.id).toBe(c1.configurable?.checkpoint_id);
		const c2 = await putValues(a, c1, { n: 2 }, { n: 2 });
		// b has not seen c2: its append is refused (the seq is taken), it reads on and plans again.
		const c3 = await putValues(b, c1, { n: 3 }, { n: 3 });
		for (const reader of [a, b, new StoreCheckpointer({ store })]) {
			expect((await reader.getTuple(c2))?.checkpoint.channel_values).toEqual({ n: 2 });
			expect((await reader.getTuple(c3))?.checkpoint.channel_values).toEqual({ n: 3 });
			expect((await reader.getTuple(c3))?.parentConfig?.configurable?.checkpoint_id).toBe(
				c1.configurable?.checkpoint_id,
			);
		}
		const sessionId = await sessionIdOf(store, "race");
		const records = await recordsOf(store, sessionId);
		expect(new SessionTree(records).leaves()).toHaveLength(2);
		expect((await store.verify(sessionId))[0]?.problems).toEqual([]);
	});
});

describe("which session is the thread", () => {
	it("reading a thread that does not exist creates nothing", async () => {
		const { store, checkpointer } = setup();
		expect(await checkpointer.getTuple(rootOf("nobody"))).toBeUndefined();
		const listed = [];
		for await (const tuple of checkpointer.list(rootOf("nobody"))) listed.push(tuple);
		expect(listed).toEqual([]);
		expect((await store.list({ archived: true })).sessions).toEqual([]);
	});

	it("is the oldest session of its identity key; a newer one made at the same moment is deleted while empty", async () => {
		const { store } = setup();
		let rival: string | undefined;
		const racing = Object.create(store) as typeof store;
		racing.create = async (options) => {
			// Another process creates the thread's session just before this one does.
			rival ??= (await store.create(options)).id;
			return store.create(options);
		};
		const checkpointer = new StoreCheckpointer({ store: racing });
		await putValues(checkpointer, rootOf("raced"), { n: 1 }, { n: 1 });
		const sessions = (await store.list({ archived: true, identityKey: "raced" })).sessions;
		expect(sessions.map((session) => session.id)).toEqual([rival]);
		expect(sessions[0]?.lastSeq).toBeGreaterThan(0);
	});

	it("leaves alone a session with the same identity key that is no thread, and deleteThread deletes only the thread", async () => {
		const { store, checkpointer } = setup();
		const chat = await store.create({ identityKey: "alice" });
		await store.append(chat.id, [{ recordType: "message", role: "user", content: [{ type: "text", text: "hi" }] }]);
		const config = await putValues(checkpointer, rootOf("alice"), { n: 1 }, { n: 1 });
		const thread = await store.list({ archived: true, identityKey: "alice" });
		expect(thread.sessions).toHaveLength(2);
		expect((await checkpointer.getTuple(config))?.checkpoint.channel_values).toEqual({ n: 1 });
		await checkpointer.deleteThread("alice");
		expect((await store.list({ archived: true, identityKey: "alice" })).sessions.map((s) => s.id)).toEqual([chat.id]);
		expect(await checkpointer.getTuple(rootOf("alice"))).toBeUndefined();
		// The thread starts afresh.
		await putValues(checkpointer, rootOf("alice"), { n: 7 }, { n: 7 });
		expect((await checkpointer.getTuple(rootOf("alice")))?.checkpoint.channel_values).toEqual({ n: 7 });
	});

	it("still finds a thread whose session was archived (archiving hides, it does not delete)", async () => {
		const { store, checkpointer } = setup();
		const config = await putValues(checkpointer, rootOf("hidden"), { n: 1 }, { n: 1 });
		await store.archive(await sessionIdOf(store, "hidden"));
		const reader = new StoreCheckpointer({ store });
		expect((await reader.getTuple(config))?.checkpoint.channel_values).toEqual({ n: 1 });
		const records = await recordsOf(store, (await store.list({ archived: "only" })).sessions[0]?.id as string);
		expect(customOf(records, CHECKPOINT)).toHaveLength(1);
	});
});

describe("bad input", () => {
	it("is refused with an error that names what to pass, and nothing is written", async () => {
		const { store, checkpointer } = setup();
		const { checkpoint } = {
			checkpoint: { v: 4, id: "1", ts: "", channel_values: {}, channel_versions: {}, versions_seen: {} },
		};
		const meta = { source: "input" as const, step: -1, parents: {} };
		await expectInvalid(checkpointer.put({}, checkpoint, meta, {}), "config.configurable");
		await expectInvalid(checkpointer.put({ configurable: {} }, checkpoint, meta, {}), "thread_id");
		await expectInvalid(
			checkpointer.put({ configurable: { thread_id: {} } }, checkpoint, meta, {}),
			"thread_id must be a string",
		);
		await expectInvalid(checkpointer.put(rootOf("t"), { ...checkpoint, id: "" }, meta, {}), "checkpoint with an id");
		await expectInvalid(checkpointer.put(rootOf("x".repeat(1025)), checkpoint, meta, {}), "at most 1024");
		await expectInvalid(checkpointer.putWrites(rootOf("t"), [["a", 1]], "task"), "checkpoint_id");
		await expectInvalid(checkpointer.getTuple({ configurable: { thread_id: "t", checkpoint_ns: 5 } }), "checkpoint_ns");
		expect((await store.list({ archived: true })).sessions).toEqual([]);
	});

	it("a checkpointer without a store, or with a bad option, is refused when made", () => {
		expect(() => new StoreCheckpointer({} as never)).toThrow(/needs a SessionStore/);
		const { store } = setup();
		expect(() => new StoreCheckpointer({ store, messagesChannel: "" })).toThrow(/messagesChannel/);
		expect(() => new StoreCheckpointer({ store, cacheBytes: 0 })).toThrow(/cacheBytes/);
	});
});
