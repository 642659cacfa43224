import type { AgentSessions, EventError, SessionEvent } from "@agent/session";
import type { CompactionTrigger, SessionRecord, Usage } from "@agent/session-format";

export interface TurnStart {
	sessionId: string;
	turnId: string;
	/** Epoch ms. */
	startedAt: number;
	/** Time it waited in the queue (and for a turn slot), when its queueing was seen. */
	queuedMs?: number;
}

export interface ModelCallStart {
	sessionId: string;
	turnId: string;
	model: string;
	call: number;
	startedAt: number;
	retryOf?: string;
}

export interface ModelCallEnd extends ModelCallStart {
	provider: string;
	durationMs: number;
	stopReason: string;
	usage?: Usage;
	error?: EventError;
}

/** A turn as it ended: the outcome its `turn` record gives when it wrote one, else its event's. */
export interface TurnEnd {
	sessionId: string;
	turnId: string;
	/** completed, failed, cancelled, interrupted (and whatever outcome a `turn` record names). */
	outcome: string;
	model?: string;
	startedAt: number;
	durationMs: number;
	queuedMs?: number;
	usage?: Usage;
	modelCalls: number;
	/** Model calls made again (model.started with retryOf). */
	retries: number;
	error?: EventError;
}

export interface CompactionStart {
	sessionId: string;
	trigger: CompactionTrigger;
	startedAt: number;
	/** The turn of the session running now, when the compaction is part of it. */
	turnId?: string;
	tokensBefore?: number;
	messages?: number;
}

export interface CompactionEnd extends CompactionStart {
	outcome: "completed" | "failed" | "skipped";
	durationMs: number;
	tokensAfter?: number;
	error?: EventError;
}

/** What logs, metrics and traces want to hear of turns; every member optional. */
export interface TurnObserver {
	turnQueued?(sessionId: string, turnId: string): void;
	turnStarted?(turn: TurnStart): void;
	modelStarted?(call: ModelCallStart): void;
	modelEnded?(call: ModelCallEnd): void;
	turnEnded?(turn: TurnEnd): void;
	compactionStarted?(compaction: CompactionStart): void;
	compactionEnded?(compaction: CompactionEnd): void;
}

interface TurnState {
	queuedAt?: number;
	start?: TurnStart;
	calls: Map<number, ModelCallStart>;
	modelCalls: number;
	retries: number;
	model?: string;
	/** From the turn's `turn` record, appended before turn.completed / turn.failed. */
	record?: { outcome: string; model?: string; usage?: Usage };
}

/**
 * Follows this runtime's own events (not those relayed from other instances) and tells the
 * observers of each turn, model call and compaction as they start and end: the one place that
 * turns the runtime's events into what the logs, /metrics and traces report.
 */
export function watchTurns(runtime: AgentSessions, observers: readonly TurnObserver[], now = Date.now): () => void {
	const turns = new Map<string, TurnState>();
	/** Per session: the turn running now, and the compaction in progress. */
	const runningTurn = new Map<string, string>();
	const compactions = new Map<string, CompactionStart>();
	const tell = <K extends keyof TurnObserver>(method: K, value: Parameters<NonNullable<TurnObserver[K]>>[0]) => {
		for (const observer of observers)
			(observer[method] as ((arg: typeof value) => void) | undefined)?.call(observer, value);
	};
	const stateOf = (turnId: string): TurnState => {
		let state = turns.get(turnId);
		if (!state) {
			state = { calls: new Map(), modelCalls: 0, retries: 0 };
			turns.set(turnId, state);
		}
		return state;
	};

	const onEvent = (event: SessionEvent) => {
		switch (event.type) {
			case "turn.queued":
				stateOf(event.turnId).queuedAt = now();
				for (const observer of observers) observer.turnQueued?.(event.sessionId, event.turnId);
				break;
			case "turn.started": {
				const state = stateOf(event.turnId);
				const startedAt = now();
				state.start = {
					sessionId: event.sessionId,
					turnId: event.turnId,
					startedAt,
					...(state.queuedAt !== undefined ? { queuedMs: startedAt - state.queuedAt } : {}),
				};
				runningTurn.set(event.sessionId, event.turnId);
				tell("turnStarted", state.start);
				break;
			}
			case "model.started": {
				const state = stateOf(event.turnId);
				const call: ModelCallStart = {
					sessionId: event.sessionId,
					turnId: event.turnId,
					model: event.model,
					call: event.call,
					startedAt: now(),
					...(event.retryOf ? { retryOf: event.retryOf } : {}),
				};
				state.calls.set(event.call, call);
				state.modelCalls++;
				state.model = event.model;
				if (event.retryOf) state.retries++;
				tell("modelStarted", call);
				break;
			}
			case "model.completed": {
				const state = stateOf(event.turnId);
				const start = state.calls.get(event.call);
				state.calls.delete(event.call);
				tell("modelEnded", {
					...(start ?? {
						sessionId: event.sessionId,
						turnId: event.turnId,
						model: event.model,
						call: event.call,
						startedAt: now() - event.durationMs,
					}),
					provider: event.provider,
					durationMs: event.durationMs,
					stopReason: event.stopReason,
					...(event.usage ? { usage: event.usage } : {}),
					...(event.error ? { error: event.error } : {}),
				});
				break;
			}
			case "record.appended": {
				const record = event.record;
				if (record.recordType !== "turn") break;
				const state = turns.get(record.turnId);
				if (!state) break;
				state.record = {
					outcome: record.outcome,
					...(record.model ? { model: record.model } : {}),
					...(record.usage ? { usage: record.usage } : {}),
				};
				break;
			}
			case "turn.completed":
			case "turn.failed": {
				const state = turns.get(event.turnId);
				turns.delete(event.turnId);
				if (runningTurn.get(event.sessionId) === event.turnId) runningTurn.delete(event.sessionId);
				const error = event.type === "turn.failed" ? event.error : undefined;
				const endedAt = now();
				const startedAt = state?.start?.startedAt ?? endedAt;
				const model = state?.record?.model ?? state?.model;
				const queuedMs = state?.start?.queuedMs;
				tell("turnEnded", {
					sessionId: event.sessionId,
					turnId: event.turnId,
					outcome: state?.record?.outcome ?? (error === undefined ? "completed" : outcomeOfError(error)),
					...(model ? { model } : {}),
					startedAt,
					durationMs: endedAt - startedAt,
					...(queuedMs !== undefined ? { queuedMs } : {}),
					...(state?.record?.usage ? { usage: state.record.usage } : {}),
					modelCalls: state?.modelCalls ?? 0,
					retries: state?.retries ?? 0,
					...(error ? { error } : {}),
				});
				break;
			}
			case "compaction.started": {
				const turnId = runningTurn.get(event.sessionId);
				const start: CompactionStart = {
					sessionId: event.sessionId,
					trigger: event.trigger,
					startedAt: now(),
					...(turnId ? { turnId } : {}),
					...(event.tokensBefore !== undefined ? { tokensBefore: event.tokensBefore } : {}),
					...(event.messages !== undefined ? { messages: event.messages } : {}),
				};
				compactions.set(event.sessionId, start);
				tell("compactionStarted", start);
				break;
			}
			case "compaction.completed":
			case "compaction.failed":
			case "compaction.skipped": {
				const start = compactions.get(event.sessionId);
				compactions.delete(event.sessionId);
				const recorded = event.type === "compaction.completed" ? compactionFields(event.record) : {};
				const trigger =
					event.type === "compaction.completed" ? (recorded.trigger ?? start?.trigger ?? "manual") : event.trigger;
				const endedAt = now();
				const base: CompactionStart = start ?? { sessionId: event.sessionId, trigger, startedAt: endedAt };
				tell("compactionEnded", {
					...base,
					trigger,
					outcome:
						event.type === "compaction.completed"
							? "completed"
							: event.type === "compaction.failed"
								? "failed"
								: "skipped",
					durationMs: endedAt - base.startedAt,
					...(event.type === "compaction.skipped" ? { tokensAfter: event.tokensAfter } : {}),
					...(recorded.tokensAfter !== undefined ? { tokensAfter: recorded.tokensAfter } : {}),
					...(event.type === "compaction.failed" ? { error: event.error } : {}),
				});
				break;
			}
			default:
				break;
		}
	};
	return runtime.subscribe((event, origin) => {
		if (!origin.relayed) onEvent(event);
	});
}

/** What a compaction record says of itself. */
function compactionFields(record: SessionRecord): { trigger?: CompactionTrigger; tokensAfter?: number } {
	if (record.recordType !== "compaction") return {};
	return {
		...(record.trigger ? { trigger: record.trigger } : {}),
		...(record.tokensAfter !== undefined ? { tokensAfter: record.tokensAfter } : {}),
	};
}

/** A turn that ended without a `turn` record: cancelled (before it started) or failed (a deferred session's first turn). */
function outcomeOfError(error: EventError): string {
	return error.code === "ABORTED" ? "cancelled" : "failed";
}
