import { AgentSessionError } from "@agent/session-format/reading";

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** A whole number and a unit: 90d, 12h, 30m, 45s, 2w (at most six digits: a date that far back still exists). */
export const DURATION_PATTERN = /^(\d{1,6})(s|m|h|d|w)$/;

/** What a duration looks like, for messages. */
export const DURATION_HELP = "a whole number and a unit (s, m, h, d or w), such as 90d, 12h or 30m";

/**
 * Milliseconds of a duration written as config.yaml and the flags take it (`90d`); `field` names
 * what was given in the error.
 */
export function parseDuration(text: string, field: string): number {
	const match = DURATION_PATTERN.exec(text.trim());
	if (!match) {
		throw new AgentSessionError(
			"INVALID_ARGUMENT",
			`@agent/session: ${field} must be ${DURATION_HELP}, not ${JSON.stringify(text)}`,
		);
	}
	return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
