import { AgentSessionError } from "@agent/session-format/reading";

/** How long a turn may run, from its start to its `turn` record, unless configured. */
export const DEFAULT_TURN_TIMEOUT_MS = 10 * 60_000;
/** How long a model call may go without progress (no first event, or none since the last), unless configured. */
export const DEFAULT_MODEL_CALL_TIMEOUT_MS = 2 * 60_000;

/** The longest delay setTimeout takes (about 24.8 days); longer ones fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Starts a timer that calls `fire` after `ms` (never for Infinity), without keeping the process
 * alive; returns what stops it.
 */
export function startTimer(ms: number, fire: () => void): () => void {
	if (!Number.isFinite(ms)) return () => {};
	const timer = setTimeout(fire, Math.min(Math.max(ms, 0), MAX_TIMER_MS));
	timer.unref?.();
	return () => clearTimeout(timer);
}

/** A duration for messages: "90 s", "10 min". */
export function describeMs(ms: number): string {
	return ms >= 120_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 100) / 10} s`;
}

/**
 * A turn's deadline: its signal aborts when the turn has run for `ms`, which ends the model call,
 * tool calls, compaction, lease wait or retry under way. `timedOut` turns the error the turn then
 * fails with into TIMED_OUT, which its `turn` record keeps as the outcome `timed_out`.
 */
export class TurnDeadline {
	private readonly controller = new AbortController();
	private readonly stop: () => void;

	constructor(readonly ms: number) {
		this.stop = startTimer(ms, () => this.controller.abort(new Error(`the turn ran for ${describeMs(ms)}`)));
	}

	get signal(): AbortSignal {
		return this.controller.signal;
	}

	get fired(): boolean {
		return this.controller.signal.aborted;
	}

	/** The turn's own signal joined with the deadline's. */
	join(signal: AbortSignal | undefined): AbortSignal {
		return signal ? AbortSignal.any([signal, this.controller.signal]) : this.controller.signal;
	}

	timedOut(cause: unknown): AgentSessionError {
		return new AgentSessionError(
			"TIMED_OUT",
			`@agent/session: the turn ran out of time (${describeMs(this.ms)}, turn_timeout_seconds) and was stopped; what it stored stays stored, and the next turn of the session runs`,
			{ cause },
		);
	}

	clear(): void {
		this.stop();
	}
}
