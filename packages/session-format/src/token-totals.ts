import type { SessionMetrics, TokenTotals } from "./metadata.js";

export function emptyTokenTotals(): TokenTotals {
	return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: 0, turns: 0 };
}

export function emptyMetrics(): SessionMetrics {
	return { ...emptyTokenTotals(), byModel: {} };
}
