/**
 * The turns of this runtime that can still be cancelled (queued or running), each with its own
 * AbortController, so a user can stop one turn without touching the caller's signal.
 */
export class TurnControls {
	private readonly turns = new Map<
		string,
		{ sessionId: string; controller: AbortController; running: boolean; detach: () => void }
	>();

	/** Registers a turn; its signal aborts when the caller's signal does or when it is cancelled. */
	add(sessionId: string, turnId: string, callerSignal?: AbortSignal): AbortSignal {
		const controller = new AbortController();
		let detach = () => {};
		if (callerSignal?.aborted) controller.abort(callerSignal.reason);
		else if (callerSignal) {
			const onAbort = () => controller.abort(callerSignal.reason);
			callerSignal.addEventListener("abort", onAbort, { once: true });
			detach = () => callerSignal.removeEventListener("abort", onAbort);
		}
		this.turns.set(turnId, { sessionId, controller, running: false, detach });
		return controller.signal;
	}

	/** Whether the turn is queued or running in this runtime. */
	has(turnId: string): boolean {
		return this.turns.has(turnId);
	}

	started(turnId: string): void {
		const turn = this.turns.get(turnId);
		if (turn) turn.running = true;
	}

	remove(turnId: string): void {
		this.turns.get(turnId)?.detach();
		this.turns.delete(turnId);
	}

	/** The turn running now for a session, if any. */
	runningTurn(sessionId: string): string | undefined {
		for (const [turnId, turn] of this.turns) if (turn.sessionId === sessionId && turn.running) return turnId;
		return undefined;
	}

	/** Cancels a queued or running turn of the session; false when there is no such turn (it ended, or never was). */
	cancel(sessionId: string, turnId: string): boolean {
		const turn = this.turns.get(turnId);
		if (!turn || turn.sessionId !== sessionId) return false;
		turn.controller.abort(new Error("cancelled by the user"));
		return true;
	}
}
