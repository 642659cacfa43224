/**
 * A FIFO queue per session: work for one session runs one item at a time, in the order it was
 * enqueued; different sessions run concurrently (S7.10). Cross-process ordering is the store
 * lease's job; this keeps one process from even asking for it twice.
 */
export class TurnQueue {
	private readonly tails = new Map<string, Promise<unknown>>();
	private readonly depths = new Map<string, number>();

	/** Items queued or running for a session. */
	depth(sessionId: string): number {
		return this.depths.get(sessionId) ?? 0;
	}

	/**
	 * Enqueues `work`; `onQueued` receives the item's position (0 = runs now, n = n items ahead).
	 * The returned promise settles with the work's own result.
	 */
	enqueue<T>(sessionId: string, work: () => Promise<T>, onQueued?: (position: number) => void): Promise<T> {
		const position = this.depth(sessionId);
		this.depths.set(sessionId, position + 1);
		onQueued?.(position);
		const previous = this.tails.get(sessionId) ?? Promise.resolve();
		const run = previous.then(work, work);
		const tail: Promise<void> = run.then(
			() => this.settle(sessionId, tail),
			() => this.settle(sessionId, tail),
		);
		this.tails.set(sessionId, tail);
		return run;
	}

	/** Resolves when everything queued so far for the session (or every session) has settled. */
	async idle(sessionId?: string): Promise<void> {
		const tails = sessionId === undefined ? [...this.tails.values()] : [this.tails.get(sessionId)];
		await Promise.all(tails.map((tail) => tail?.catch(() => {})));
	}

	private settle(sessionId: string, tail: Promise<unknown>): void {
		const remaining = this.depth(sessionId) - 1;
		if (remaining <= 0) this.depths.delete(sessionId);
		else this.depths.set(sessionId, remaining);
		if (this.tails.get(sessionId) === tail) this.tails.delete(sessionId);
	}
}
