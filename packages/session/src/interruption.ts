/**
 * The abort reason of a process that stops (a server's shutdown): the turns it ends are recorded
 * with outcome "interrupted", not "cancelled" (which is a user's Stop), and turns it stops before
 * they started are recorded too, so that every turn acknowledged with a 202 is in the log.
 */
export class TurnInterruption extends Error {
	readonly code = "INTERRUPTED";

	constructor(message: string) {
		super(message);
		this.name = "TurnInterruption";
	}
}

/** True when `reason` (an abort reason or an error, or any cause in its chain) is a TurnInterruption. */
export function isInterruption(reason: unknown): boolean {
	for (let seen = 0, current = reason; current !== undefined && current !== null && seen < 8; seen++) {
		if (current instanceof TurnInterruption) return true;
		current = (current as { cause?: unknown }).cause;
	}
	return false;
}
