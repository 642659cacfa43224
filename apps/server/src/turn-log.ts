import type { Log, LogFields } from "./log.js";
import type { TurnObserver } from "./turn-watch.js";

/** Outcomes an operator should look at: logged as warnings. */
const WARN_OUTCOMES = new Set(["failed", "interrupted", "timed_out"]);

/**
 * One log line per turn (`turn`: ids, outcome, duration, model, tokens, cost, model calls,
 * retries, error), one per failed model call (`model.failed`, with the provider's error: a
 * provider's 500 is seen here, not only by the client as a 502), one per call made again
 * (`model.retry`), and one per compaction.
 */
export function turnLog(log: Log): TurnObserver {
	return {
		modelStarted(call) {
			if (!call.retryOf) return;
			log("warn", "model.retry", {
				sessionId: call.sessionId,
				turnId: call.turnId,
				model: call.model,
				call: call.call,
				reason: call.retryOf,
			});
		},
		modelEnded(call) {
			if (call.stopReason !== "error") return;
			log("warn", "model.failed", {
				sessionId: call.sessionId,
				turnId: call.turnId,
				model: call.model,
				provider: call.provider,
				call: call.call,
				durationMs: call.durationMs,
				errorCode: call.error?.code,
				error: call.error?.message,
			});
		},
		turnEnded(turn) {
			const usage = turn.usage;
			const fields: LogFields = {
				sessionId: turn.sessionId,
				turnId: turn.turnId,
				outcome: turn.outcome,
				durationMs: turn.durationMs,
				queuedMs: turn.queuedMs,
				model: turn.model,
				inputTokens: usage?.input,
				outputTokens: usage?.output,
				cacheReadTokens: usage?.cacheRead || undefined,
				cacheWriteTokens: usage?.cacheWrite || undefined,
				costUsd: usage?.cost ? roundCost(usage.cost.total) : undefined,
				modelCalls: turn.modelCalls,
				retries: turn.retries,
				errorCode: turn.error?.code,
				error: turn.error?.message,
			};
			log(WARN_OUTCOMES.has(turn.outcome) ? "warn" : "info", "turn", fields);
		},
		compactionEnded(compaction) {
			log(compaction.outcome === "failed" ? "warn" : "info", "compaction", {
				sessionId: compaction.sessionId,
				turnId: compaction.turnId,
				trigger: compaction.trigger,
				outcome: compaction.outcome,
				durationMs: compaction.durationMs,
				tokensBefore: compaction.tokensBefore,
				tokensAfter: compaction.tokensAfter,
				errorCode: compaction.error?.code,
				error: compaction.error?.message,
			});
		},
	};
}

/** Dollars to a millionth: enough for a cheap model's turn, without float noise in every line. */
export function roundCost(dollars: number): number {
	return Math.round(dollars * 1e6) / 1e6;
}
