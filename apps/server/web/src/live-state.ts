import type { SessionEvent } from "@agent/session";
import { isSideRecord, type SessionMetadata, type StoredRecord } from "@agent/session-format/reading";
import { describeError } from "./error-text.js";
import type { NoticeKind } from "./notices.js";

export type CompactionEvent = Extract<SessionEvent, { type: `compaction.${string}` }>;

/** What the open session's events say beyond its records: the turns under way and the reply being written. */
export interface LiveState {
	/** Turns queued or running, oldest first. */
	readonly pending: readonly string[];
	/** The reply being written: its turn and the text so far (since the turn's last stored reply). */
	readonly streaming?: { readonly turnId: string; readonly text: string };
	/** A deferred session's first message, until its reply comes: given back if that turn fails (nothing was kept). */
	readonly unsavedFirstMessage?: string;
}

export const IDLE: LiveState = { pending: [] };

/** What the view does after an event: the reducer decides, the view carries it out. */
export type LiveEffect =
	| { type: "record"; record: StoredRecord }
	| { type: "metadata"; metadata: SessionMetadata }
	| { type: "notice"; text: string; kind: NoticeKind }
	/** A deferred session's first turn failed or was stopped: nothing was saved; back to a draft with the text. */
	| { type: "first-turn-lost"; text: string }
	| { type: "deleted" }
	| { type: "compaction"; event: CompactionEvent }
	/** A turn ended: draw again, and measure the context again. */
	| { type: "turn-ended" }
	/** The reply being written changed (started, grew, was stored, or ended). */
	| { type: "streaming" }
	/** The turns under way changed (the Stop button and the queue line). */
	| { type: "queue" };

/**
 * The live updates of one open session, as a reducer over its socket's events: the new state and
 * what to do. Pure (no DOM, no requests), so every event's meaning is tested on its own
 * (live-state.test.ts). `model` names the session's model, for errors that say which key to set.
 */
export function reduceLive(
	state: LiveState,
	event: SessionEvent,
	model?: string,
): { state: LiveState; effects: LiveEffect[] } {
	switch (event.type) {
		case "record.appended": {
			const record = event.record as StoredRecord;
			const effects: LiveEffect[] = [{ type: "record", record }];
			// A turn lost with the process that ran it is recorded (interrupted) when the session is next
			// used, on any instance; no turn.failed comes for it, so its record ends it here.
			if (record.recordType === "turn" && record.outcome === "interrupted" && state.pending.includes(record.turnId)) {
				const { streaming, ...rest } = state;
				return {
					state: {
						...rest,
						pending: state.pending.filter((turn) => turn !== record.turnId),
						...(streaming && streaming.turnId !== record.turnId ? { streaming } : {}),
					},
					effects: [...effects, { type: "queue" }, { type: "streaming" }, { type: "turn-ended" }],
				};
			}
			// A stored reply: the text so far is a record now; the next model call writes afresh.
			if (state.streaming && record.recordType === "message" && record.role === "assistant") {
				return {
					state: { ...state, streaming: { ...state.streaming, text: "" } },
					effects: [...effects, { type: "streaming" }],
				};
			}
			return { state, effects };
		}
		case "session.updated":
			return { state, effects: [{ type: "metadata", metadata: event.metadata }] };
		case "session.deleted": {
			const text = state.unsavedFirstMessage;
			if (text !== undefined) {
				return { state: IDLE, effects: [{ type: "first-turn-lost", text }] };
			}
			return { state: IDLE, effects: [{ type: "deleted" }] };
		}
		case "turn.queued":
			return { state: { ...state, pending: withTurn(state.pending, event.turnId) }, effects: [{ type: "queue" }] };
		case "turn.started":
			return {
				state: {
					...state,
					pending: withTurn(state.pending, event.turnId),
					streaming: { turnId: event.turnId, text: "" },
				},
				effects: [{ type: "queue" }, { type: "streaming" }],
			};
		case "turn.delta": {
			if (event.kind !== "text") return { state, effects: [] };
			const before = state.streaming?.turnId === event.turnId ? state.streaming.text : "";
			const known = state.pending.includes(event.turnId);
			return {
				state: {
					...state,
					pending: withTurn(state.pending, event.turnId),
					streaming: { turnId: event.turnId, text: before + event.delta },
				},
				effects: known ? [{ type: "streaming" }] : [{ type: "queue" }, { type: "streaming" }],
			};
		}
		case "turn.completed":
		case "turn.failed": {
			const next: LiveState = {
				pending: state.pending.filter((turn) => turn !== event.turnId),
				...(state.streaming && state.streaming.turnId !== event.turnId ? { streaming: state.streaming } : {}),
				...(event.type === "turn.failed" && state.unsavedFirstMessage !== undefined
					? { unsavedFirstMessage: state.unsavedFirstMessage }
					: {}),
			};
			const effects: LiveEffect[] = [{ type: "queue" }, { type: "streaming" }, { type: "turn-ended" }];
			if (event.type === "turn.failed") {
				const stopped = event.error.code === "ABORTED";
				effects.push({
					type: "notice",
					text: describeError(event.error.code, event.error.message, model),
					kind: stopped ? "info" : "error",
				});
			}
			return { state: next, effects };
		}
		case "compaction.started":
		case "compaction.progress":
		case "compaction.skipped":
		case "compaction.failed":
		case "compaction.completed":
			return { state, effects: [{ type: "compaction", event }] };
		default:
			return { state, effects: [] };
	}
}

function withTurn(pending: readonly string[], turnId: string): readonly string[] {
	return pending.includes(turnId) ? pending : [...pending, turnId];
}

/**
 * The leaf to show once `record` is in the tree (its parent resolved there): a message or other
 * tree record that continues the leaf on screen extends the view, on the active branch or on
 * another one the user is looking at (so a send from there stays there); an empty view that
 * follows the active branch takes the first record. Side records (names, labels, leaf moves,
 * turns) are never a leaf to show.
 */
export function leafAfter(
	view: { leaf: number | null; following: boolean },
	record: StoredRecord,
	parent: number | null,
): number | null {
	if (isSideRecord(record)) return view.leaf;
	if (view.leaf === null) return view.following ? record.seq : null;
	return parent === view.leaf ? record.seq : view.leaf;
}
