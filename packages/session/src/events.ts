import type { CompactionTrigger, SessionMetadata, SessionRecord, Usage } from "@agent/session-format/reading";

/** A failure as carried by events: the error's code and message. */
export interface EventError {
	code: string;
	message: string;
}

/** Everything the runtime tells UIs. Every event names its session. */
export type SessionEvent =
	| { type: "session.created"; sessionId: string; metadata: SessionMetadata }
	| { type: "session.updated"; sessionId: string; metadata: SessionMetadata }
	| { type: "session.deleted"; sessionId: string }
	| { type: "record.appended"; sessionId: string; record: SessionRecord }
	| { type: "turn.queued"; sessionId: string; turnId: string; position: number }
	| { type: "turn.started"; sessionId: string; turnId: string }
	| { type: "turn.delta"; sessionId: string; turnId: string; kind: "text" | "thinking" | "toolCall"; delta: string }
	| { type: "turn.completed"; sessionId: string; turnId: string; records: SessionRecord[] }
	| { type: "turn.failed"; sessionId: string; turnId: string; error: EventError }
	| {
			/** A model call of a turn starts: one per step (each tool round, and a call made again after an overflow). */
			type: "model.started";
			sessionId: string;
			turnId: string;
			model: string;
			/** 1 for the turn's first call, then 2, 3… */
			call: number;
			/** Why this call repeats the one before it (e.g. "context_overflow": it is sent again after a compaction). */
			retryOf?: string;
	  }
	| {
			/** A model call ended, however it ended (`stopReason` "error" and "aborted" included). */
			type: "model.completed";
			sessionId: string;
			turnId: string;
			model: string;
			/** The provider as pi-ai names it (e.g. "anthropic", "demo"). */
			provider: string;
			call: number;
			durationMs: number;
			stopReason: string;
			usage?: Usage;
			/** The provider's error, when the call failed. */
			error?: EventError;
	  }
	| {
			type: "compaction.started";
			sessionId: string;
			trigger: CompactionTrigger;
			/** What the plan summarizes: its messages and their estimated tokens. */
			messages?: number;
			tokensBefore?: number;
			/** The summarizer calls it is estimated to take, when the caller asked (CompactOptions.estimateChunks). */
			chunksEstimated?: number;
	  }
	| {
			type: "compaction.progress";
			sessionId: string;
			trigger: CompactionTrigger;
			/** Summarizer calls made so far (one per chunk; a long history goes in many). */
			chunks: number;
			/** The calls estimated in all, when asked for: the `n` of "chunk i of n" (an estimate; i may pass it). */
			chunksEstimated?: number;
			/** Messages summarized so far, of all the plan summarizes. */
			messagesDone: number;
			messagesTotal: number;
	  }
	| {
			/** A compaction that would not make the context smaller was not run (nothing was written). */
			type: "compaction.skipped";
			sessionId: string;
			trigger: CompactionTrigger;
			reason: string;
			/** Estimated tokens of the context now, and after such a compaction at most. */
			contextTokens: number;
			tokensAfter: number;
	  }
	| { type: "compaction.completed"; sessionId: string; record: SessionRecord }
	| { type: "compaction.failed"; sessionId: string; trigger: CompactionTrigger; error: EventError };

export type SessionEventType = SessionEvent["type"];

/** Where an event came from. */
export interface EventOrigin {
	/** True for an event of another instance, relayed over the store (joinInstances); false for this runtime's own. */
	relayed: boolean;
}

export type SessionEventListener = (event: SessionEvent, origin: EventOrigin) => void;

const LOCAL: EventOrigin = Object.freeze({ relayed: false });
const RELAYED: EventOrigin = Object.freeze({ relayed: true });

/**
 * A typed event hub. Listeners run synchronously in the order they subscribed; a listener that
 * throws is reported to `onListenerError` and never breaks a turn or other listeners.
 */
export class SessionEvents {
	private readonly listeners = new Set<{ listener: SessionEventListener; sessionId: string | undefined }>();

	constructor(private readonly onListenerError: (error: unknown) => void = () => {}) {}

	/** Subscribes to every event, or to one session's. Returns the unsubscribe function. */
	subscribe(listener: SessionEventListener, options: { sessionId?: string } = {}): () => void {
		const entry = { listener, sessionId: options.sessionId };
		this.listeners.add(entry);
		return () => {
			this.listeners.delete(entry);
		};
	}

	/** Tells every listener; `relayed` marks an event of another instance (metrics count only their own). */
	emit(event: SessionEvent, options: { relayed?: boolean } = {}): void {
		const origin = options.relayed ? RELAYED : LOCAL;
		for (const { listener, sessionId } of this.listeners) {
			if (sessionId !== undefined && sessionId !== event.sessionId) continue;
			try {
				listener(event, origin);
			} catch (error) {
				this.onListenerError(error);
			}
		}
	}

	get listenerCount(): number {
		return this.listeners.size;
	}

	/** True when a listener subscribed to this session's events in particular (a client showing it). */
	watched(sessionId: string): boolean {
		for (const entry of this.listeners) if (entry.sessionId === sessionId) return true;
		return false;
	}
}

export function toEventError(error: unknown): EventError {
	if (error && typeof error === "object" && "message" in error) {
		const code = "code" in error && typeof error.code === "string" ? error.code : "ERROR";
		return { code, message: String(error.message) };
	}
	return { code: "ERROR", message: String(error) };
}
