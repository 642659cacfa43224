import type { SessionEvent } from "@agent/session";
import type { SessionMetadata, SessionRecord, StoredRecord } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { IDLE, type LiveEffect, type LiveState, leafAfter, reduceLive } from "./live-state.js";

const id = "01ARZ3NDEKTSV4RRFFQ69G5FAV";

function run(events: SessionEvent[], start: LiveState = IDLE, model?: string) {
	let state = start;
	const effects: LiveEffect[] = [];
	for (const event of events) {
		const next = reduceLive(state, event, model);
		state = next.state;
		effects.push(...next.effects);
	}
	return { state, effects };
}

function message(seq: number, role: "user" | "assistant", parentSeq?: number): SessionRecord {
	return {
		recordType: "message",
		schemaVersion: 1,
		seq,
		timestamp: "2026-01-01T00:00:00.000Z",
		role,
		content: [{ type: "text", text: `m${seq}` }],
		...(parentSeq !== undefined ? { parentSeq } : {}),
	};
}

const started = (turnId: string): SessionEvent => ({ type: "turn.started", sessionId: id, turnId });
const delta = (turnId: string, text: string): SessionEvent => ({
	type: "turn.delta",
	sessionId: id,
	turnId,
	kind: "text",
	delta: text,
});

describe("the page's live updates (a reducer over the session's events)", () => {
	it("a turn: queued, started, its reply growing, stored, then done; Stop shows while it is pending", () => {
		const { state, effects } = run([
			{ type: "turn.queued", sessionId: id, turnId: "t1", position: 0 },
			started("t1"),
			delta("t1", "Hel"),
			delta("t1", "lo"),
		]);
		expect(state).toEqual({ pending: ["t1"], streaming: { turnId: "t1", text: "Hello" } });
		expect(effects.filter((e) => e.type === "queue")).toHaveLength(2);
		const stored = run([{ type: "record.appended", sessionId: id, record: message(2, "assistant") }], state);
		expect(stored.state.streaming).toEqual({ turnId: "t1", text: "" });
		const done = run([{ type: "turn.completed", sessionId: id, turnId: "t1", records: [] }], stored.state);
		expect(done.state).toEqual({ pending: [] });
		expect(done.effects.map((e) => e.type)).toEqual(["queue", "streaming", "turn-ended"]);
	});

	it("a page that joined mid-turn learns the turn from the replay (started, then the text so far) or from a delta alone", () => {
		expect(run([started("t9"), delta("t9", "so far")]).state).toEqual({
			pending: ["t9"],
			streaming: { turnId: "t9", text: "so far" },
		});
		const deltaOnly = run([delta("t9", "x")]);
		expect(deltaOnly.state.pending).toEqual(["t9"]);
		expect(deltaOnly.effects.map((e) => e.type)).toEqual(["queue", "streaming"]);
	});

	it("a turn lost with the instance that ran it ends when its record (interrupted) arrives: no Stop left for it", () => {
		const lost: SessionRecord = {
			recordType: "turn",
			schemaVersion: 1,
			seq: 4,
			timestamp: "2026-01-01T00:00:00.000Z",
			turnId: "t1",
			outcome: "interrupted",
			startedAt: "2026-01-01T00:00:00.000Z",
			durationMs: 0,
		};
		const { state, effects } = run([
			started("t1"),
			delta("t1", "Once upon"),
			{ type: "turn.queued", sessionId: id, turnId: "t2", position: 0 },
			{ type: "record.appended", sessionId: id, record: lost },
		]);
		expect(state).toEqual({ pending: ["t2"] });
		expect(effects.slice(-4).map((e) => e.type)).toEqual(["record", "queue", "streaming", "turn-ended"]);
		// The record of a turn that ended as usual changes nothing: its turn.completed or turn.failed says so.
		const completed = { ...lost, outcome: "completed" as const };
		const usual = run([
			started("t3"),
			{ type: "record.appended", sessionId: id, record: { ...completed, turnId: "t3" } },
		]);
		expect(usual.state.pending).toEqual(["t3"]);
	});

	it("a stopped turn is a notice in words, not an error; a failed one says what to do", () => {
		const stopped = run([
			started("t1"),
			{
				type: "turn.failed",
				sessionId: id,
				turnId: "t1",
				error: { code: "ABORTED", message: "@agent/session: the turn was aborted" },
			},
		]);
		expect(stopped.effects).toContainEqual({
			type: "notice",
			text: "Stopped: what the reply had written so far is kept.",
			kind: "info",
		});
		const noKey = run(
			[
				started("t2"),
				{
					type: "turn.failed",
					sessionId: id,
					turnId: "t2",
					error: {
						code: "MODEL_FAILED",
						message: "@agent/session: the model failed: 401 invalid x-api-key; the reply is stored",
					},
				},
			],
			IDLE,
			"anthropic/claude-sonnet-4-5",
		);
		const notice = noKey.effects.find((e) => e.type === "notice");
		expect(notice).toMatchObject({ kind: "error" });
		expect(notice?.type === "notice" && notice.text).toMatch(
			/^The provider refused the API key for anthropic: check ANTHROPIC_API_KEY/,
		);
	});

	it("a deferred session deleted while its first message waits gives the message back; any other deletion says so", () => {
		const lost = run([{ type: "session.deleted", sessionId: id }], { pending: ["t1"], unsavedFirstMessage: "hello" });
		expect(lost.effects).toEqual([{ type: "first-turn-lost", text: "hello" }]);
		expect(lost.state).toEqual(IDLE);
		expect(run([{ type: "session.deleted", sessionId: id }]).effects).toEqual([{ type: "deleted" }]);
		// A first reply that came: the message is saved, nothing to give back.
		const saved = run([{ type: "turn.completed", sessionId: id, turnId: "t1", records: [] }], {
			pending: ["t1"],
			unsavedFirstMessage: "hello",
		});
		expect(saved.state.unsavedFirstMessage).toBeUndefined();
	});

	it("hands records, metadata and compaction progress to the view as they are", () => {
		const metadata = { id, lastSeq: 3 } as SessionMetadata;
		const { effects } = run([
			{ type: "record.appended", sessionId: id, record: message(1, "user") },
			{ type: "session.updated", sessionId: id, metadata },
			{ type: "compaction.progress", sessionId: id, trigger: "manual", chunks: 1, messagesDone: 3, messagesTotal: 9 },
		]);
		expect(effects.map((e) => e.type)).toEqual(["record", "metadata", "compaction"]);
	});
});

describe("which leaf the page shows after a record", () => {
	it("a record continuing the leaf on screen extends the view, on the active branch or another one", () => {
		expect(leafAfter({ leaf: 4, following: true }, message(5, "user", 4), 4)).toBe(5);
		expect(leafAfter({ leaf: 4, following: false }, message(9, "user", 4), 4)).toBe(9);
	});

	it("a record elsewhere, or a side record, leaves the view where it is; an empty view following takes the first", () => {
		expect(leafAfter({ leaf: 4, following: false }, message(9, "user", 7), 7)).toBe(4);
		const label: StoredRecord = {
			recordType: "label",
			schemaVersion: 1,
			seq: 10,
			timestamp: "2026-01-01T00:00:00.000Z",
			targetSeq: 4,
			label: "x",
		};
		expect(leafAfter({ leaf: 4, following: true }, label, 4)).toBe(4);
		expect(leafAfter({ leaf: null, following: true }, message(1, "user"), null)).toBe(1);
		expect(leafAfter({ leaf: null, following: false }, message(1, "user"), null)).toBe(null);
	});
});
