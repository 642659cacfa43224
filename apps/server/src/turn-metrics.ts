import type { ServerMetrics } from "./metrics.js";
import type { TurnObserver } from "./turn-watch.js";

/** Turns, model calls and compactions as counted by /metrics. */
export function turnMetrics(metrics: ServerMetrics): TurnObserver {
	/** Turns seen queued and not yet started, so the gauge never counts one twice or goes negative. */
	const queued = new Set<string>();
	const running = new Set<string>();
	return {
		turnQueued(_sessionId, turnId) {
			queued.add(turnId);
			metrics.turnsQueued.set(queued.size);
		},
		turnStarted(turn) {
			queued.delete(turn.turnId);
			running.add(turn.turnId);
			metrics.turnsQueued.set(queued.size);
			metrics.turnsRunning.set(running.size);
			if (turn.queuedMs !== undefined) metrics.turnQueueWait.observe(turn.queuedMs / 1000);
		},
		modelStarted(call) {
			if (call.retryOf) metrics.modelRetries.inc({ model: call.model, reason: call.retryOf });
		},
		modelEnded(call) {
			const labels = { model: call.model, provider: call.provider };
			metrics.modelCalls.inc({ ...labels, stop_reason: call.stopReason });
			metrics.modelCallDuration.observe(labels, call.durationMs / 1000);
			const usage = call.usage;
			if (!usage) return;
			const model = call.model;
			for (const [kind, count] of [
				["input", usage.input],
				["output", usage.output],
				["cache_read", usage.cacheRead],
				["cache_write", usage.cacheWrite],
			] as const) {
				if (count > 0) metrics.tokens.inc({ model, kind }, count);
			}
			if (usage.cost && usage.cost.total > 0) metrics.cost.inc({ model }, usage.cost.total);
		},
		turnEnded(turn) {
			queued.delete(turn.turnId);
			running.delete(turn.turnId);
			metrics.turnsQueued.set(queued.size);
			metrics.turnsRunning.set(running.size);
			const labels = { outcome: turn.outcome, model: turn.model ?? "none" };
			metrics.turns.inc(labels);
			metrics.turnDuration.observe(labels, turn.durationMs / 1000);
		},
		compactionEnded(compaction) {
			metrics.compactions.inc({ trigger: compaction.trigger, outcome: compaction.outcome });
			if (compaction.outcome !== "skipped") {
				metrics.compactionDuration.observe({ trigger: compaction.trigger }, compaction.durationMs / 1000);
			}
		},
	};
}
