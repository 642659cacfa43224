import { HttpError } from "./http-error.js";

/**
 * The server's way out: once `begin()` is called no new turn or compaction is accepted (503), and
 * `abort()` fires the signal every running turn was given, so a model call in flight stops and the
 * turn ends as the runtime ends an aborted one (its partial reply stored, marked aborted).
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
		this.controller.abort(new Error("the server is shutting down"));
	}

	/** A 503 for work that would start after the shutdown began. */
	refuseIfStopping(): void {
		if (!this.stopping) return;
		throw new HttpError(
			503,
			"SHUTTING_DOWN",
			"agent-sessions-server: the server is shutting down and starts no new turns; retry once it is back",
		);
	}
}
