/**
 * How many turns run at once in one runtime, across sessions (AgentSessionsOptions.maxConcurrentTurns).
 * A turn past the limit waits, in arrival order, for a running one to end; it still counts as
 * queued (no turn.started yet). A turn whose signal aborts while it waits goes on without a slot:
 * it ends at once (cancelled, or recorded as interrupted) instead of waiting for the others.
 */
export class TurnSlots {
	private running = 0;
	private readonly waiting: Array<() => void> = [];

	constructor(private readonly limit: number = Number.POSITIVE_INFINITY) {
		if (!(limit >= 1)) throw new RangeError(`@agent/session: maxConcurrentTurns must be at least 1, not ${limit}`);
	}

	/** Turns waiting for a slot. */
	get queued(): number {
		return this.waiting.length;
	}

	async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
		const held = await this.acquire(signal);
		try {
			return await work();
		} finally {
			if (held) this.release();
		}
	}

	/** Resolves true with a slot, or false when the signal aborted first (no slot held). */
	private acquire(signal: AbortSignal | undefined): Promise<boolean> {
		if (signal?.aborted) return Promise.resolve(false);
		if (this.running < this.limit) {
			this.running++;
			return Promise.resolve(true);
		}
		return new Promise((resolve) => {
			const grant = () => {
				signal?.removeEventListener("abort", onAbort);
				this.running++;
				resolve(true);
			};
			const onAbort = () => {
				const index = this.waiting.indexOf(grant);
				if (index >= 0) this.waiting.splice(index, 1);
				resolve(false);
			};
			signal?.addEventListener("abort", onAbort, { once: true });
			this.waiting.push(grant);
		});
	}

	private release(): void {
		this.running--;
		this.waiting.shift()?.();
	}
}
