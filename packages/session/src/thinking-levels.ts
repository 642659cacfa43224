import { AgentSessionError } from "@agent/session-format/reading";

/** The thinking levels pi-ai's reasoning option takes; "off" (or none) sends no reasoning option. */
export const THINKING_LEVELS: readonly string[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/** Throws INVALID_ARGUMENT for a thinking level pi-ai does not know. */
export function checkThinkingLevel(level: string): void {
	if (!THINKING_LEVELS.includes(level)) {
		throw new AgentSessionError(
			"INVALID_ARGUMENT",
			`@agent/session: unknown thinking level ${JSON.stringify(level)}; use one of ${THINKING_LEVELS.join(", ")}`,
		);
	}
}
