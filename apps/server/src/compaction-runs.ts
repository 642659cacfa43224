/**
 * The compactions the HTTP API has running, by session, so that `POST
 * /api/sessions/:id/compact/cancel` can stop them: each run gets an AbortController whose signal
 * (joined with the server's shutdown signal) goes through the runtime's compaction to the
 * summarizer call, which stops at once; nothing is appended.
 */
export class CompactionRuns {
	private readonly running = new Map<string, Set<AbortController>>();

	/**
	 * Runs `work` with a signal that fires on cancel(sessionId) or when `outer` fires. A run
	 * stopped by cancel() resolves with `{ cancelled: true }` (the request did what was asked);
	 * one stopped by `outer` (the server stopping) fails as it does.
	 */
	async run<T>(
		sessionId: string,
		outer: AbortSignal,
		work: (signal: AbortSignal) => Promise<T>,
	): Promise<{ cancelled: false; value: T } | { cancelled: true }> {
		const controller = new AbortController();
		let runs = this.running.get(sessionId);
		if (!runs) {
			runs = new Set();
			this.running.set(sessionId, runs);
		}
		runs.add(controller);
		try {
			return { cancelled: false, value: await work(AbortSignal.any([outer, controller.signal])) };
		} catch (error) {
			if (controller.signal.aborted && !outer.aborted) return { cancelled: true };
			throw error;
		} finally {
			runs.delete(controller);
			if (runs.size === 0) this.running.delete(sessionId);
		}
	}

	/** Stops every compaction of the session the API runs; returns how many there were. */
	cancel(sessionId: string): number {
		const runs = this.running.get(sessionId);
		if (!runs) return 0;
		for (const controller of runs) controller.abort(new Error("the compaction was stopped on request"));
		return runs.size;
	}
}
