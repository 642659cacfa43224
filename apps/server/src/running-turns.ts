import type { AgentSessions, SessionEvent } from "@agent/session";

interface TurnState {
	turnId: string;
	/** Where it waits (0: next); undefined once it runs. */
	position?: number;
	/** The reply's text so far: what the model wrote since the turn's last stored reply. */
	text: string;
}

/**
 * The turns queued and running in every session, and the running turns' reply text so far, as
 * the runtime's events tell them (on PostgreSQL, other instances' events too: the relay emits
 * them here). A socket that subscribes in the middle of a turn gets `replay`: the events that
 * bring it to where the turn is (a page opened or reloaded then shows the reply being written,
 * and Stop, at once, instead of an idle session until the reply is stored).
 */
export class RunningTurns {
	private readonly sessions = new Map<string, Map<string, TurnState>>();
	private readonly unsubscribe: () => void;

	constructor(runtime: AgentSessions) {
		this.unsubscribe = runtime.subscribe((event) => this.track(event));
	}

	close(): void {
		this.unsubscribe();
		this.sessions.clear();
	}

	/**
	 * The events a new subscriber needs: per session, turn.queued for each turn waiting, and for
	 * the one running turn.started and (when it wrote any) one turn.delta with its text so far.
	 * Without `sessionId`, what the all-sessions feed carries: no deltas.
	 */
	replay(sessionId?: string): SessionEvent[] {
		const events: SessionEvent[] = [];
		const sessions = sessionId === undefined ? [...this.sessions.keys()] : [sessionId];
		for (const id of sessions) {
			for (const turn of this.sessions.get(id)?.values() ?? []) {
				if (turn.position !== undefined) {
					events.push({ type: "turn.queued", sessionId: id, turnId: turn.turnId, position: turn.position });
					continue;
				}
				events.push({ type: "turn.started", sessionId: id, turnId: turn.turnId });
				if (sessionId !== undefined && turn.text.length > 0) {
					events.push({ type: "turn.delta", sessionId: id, turnId: turn.turnId, kind: "text", delta: turn.text });
				}
			}
		}
		return events;
	}

	private track(event: SessionEvent): void {
		switch (event.type) {
			case "turn.queued":
				this.turnsOf(event.sessionId).set(event.turnId, {
					turnId: event.turnId,
					position: event.position,
					text: "",
				});
				break;
			case "turn.started":
				this.turnsOf(event.sessionId).set(event.turnId, { turnId: event.turnId, text: "" });
				// The turns behind it moved up by one.
				for (const turn of this.turnsOf(event.sessionId).values()) {
					if (turn.position !== undefined && turn.position > 0) turn.position--;
				}
				break;
			case "turn.delta": {
				if (event.kind !== "text") break;
				const turns = this.turnsOf(event.sessionId);
				const turn = turns.get(event.turnId) ?? { turnId: event.turnId, text: "" };
				delete turn.position;
				turn.text += event.delta;
				turns.set(event.turnId, turn);
				break;
			}
			case "record.appended":
				// A stored reply: the text so far is in the log now; the next model call starts afresh.
				if (event.record.recordType === "message" && event.record.role === "assistant") {
					for (const turn of this.sessions.get(event.sessionId)?.values() ?? []) turn.text = "";
				}
				// A turn's record ends it, whoever wrote it: a turn lost with the instance that ran it
				// gets one (outcome interrupted) when the session is next used, and no turn.failed.
				if (event.record.recordType === "turn") this.forget(event.sessionId, event.record.turnId);
				break;
			case "turn.completed":
			case "turn.failed":
				this.forget(event.sessionId, event.turnId);
				break;
			case "session.deleted":
				this.sessions.delete(event.sessionId);
				break;
			default:
				break;
		}
	}

	private turnsOf(sessionId: string): Map<string, TurnState> {
		let turns = this.sessions.get(sessionId);
		if (!turns) {
			turns = new Map();
			this.sessions.set(sessionId, turns);
		}
		return turns;
	}

	private forget(sessionId: string, turnId: string): void {
		const turns = this.sessions.get(sessionId);
		if (!turns) return;
		turns.delete(turnId);
		if (turns.size === 0) this.sessions.delete(sessionId);
	}
}
