import { monotonicFactory } from "ulid";
import { InvalidSessionIdError } from "./errors.js";

/** The pattern every session id must match before it is used anywhere near a path (spec §7.1). */
export const SESSION_ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

// Made on first use: making it looks up the platform's random source (Node's WebCrypto, whose
// set-up is milliseconds of a start), which a process that only reads never needs.
let nextUlid: ReturnType<typeof monotonicFactory> | undefined;

/** A new session id: a ULID, monotonic within this process so ids created in one millisecond still sort. */
export function newSessionId(now: number = Date.now()): string {
	nextUlid ??= monotonicFactory();
	return nextUlid(now);
}

export function isSessionId(value: unknown): value is string {
	return typeof value === "string" && SESSION_ID_PATTERN.test(value);
}

/** Returns `value` as a session id, or throws InvalidSessionIdError (code INVALID_SESSION_ID). */
export function assertSessionId(value: unknown): string {
	if (!isSessionId(value)) throw new InvalidSessionIdError(value);
	return value;
}

/** The creation time encoded in a session id, in milliseconds since the epoch. */
export function sessionIdTime(id: string): number {
	const value = assertSessionId(id);
	const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
	let time = 0;
	for (let i = 0; i < 10; i++) time = time * 32 + alphabet.indexOf(value[i] as string);
	return time;
}
