import { TurnInterruption } from "@agent/session";
import { HttpError } from "./http-error.js";

/**
 * The server's way out: once `begin()` is called no new API request is served (503) and no new
 * turn or compaction is accepted, and `abort()` fires the signal every running turn was given with
 * a TurnInterruption, so a model call in flight stops and the turn ends recorded as interrupted
 * (its partial reply stored, marked aborted); turns still queued are recorded as interrupted too.
 */
export class Shutdown {
	private readonly controller = new AbortController();
	private stopping = false;

	get signal(): AbortSignal {
		return this.controller.signal;
	}

	get started(): boolean {
		return this.stopping;
	}

	begin(): void {
		this.stopping = true;
	}

	abort(): void {
		this.stopping = true;
		this.controller.abort(new TurnInterruption("the server is shutting down"));
	}

	/** A 503 for work that would start after the shutdown began. */
	refuseIfStopping(): void {
		this.refuse("starts no new turns; retry once it is back");
	}

	/** The 503 every new API request gets while the server drains: another instance (or this one, restarted) answers a retry. */
	refuseRequest(): void {
		this.refuse("takes no new requests; retry (another instance, or this one once restarted, will answer)");
	}

	private refuse(what: string): void {
		if (!this.stopping) return;
		throw new HttpError(503, "SHUTTING_DOWN", `agent-sessions-server: the server is shutting down and ${what}`);
	}
}
