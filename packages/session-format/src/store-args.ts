import { AgentSessionError } from "./errors.js";
import { FIELD_LIMITS } from "./limits.js";
import type { CreateSessionOptions } from "./store-contract.js";

/** The arguments of SessionStore methods every backend checks alike, before touching storage. */

function invalidArgument(message: string): AgentSessionError {
	return new AgentSessionError("INVALID_ARGUMENT", `@agent/session-format: ${message}`);
}

/** Caps on what a session is created with: facts that are shown, listed and matched, never payloads. */
const CREATE_LIMITS = {
	name: FIELD_LIMITS.title,
	model: FIELD_LIMITS.name * 2,
	cronJobId: FIELD_LIMITS.name,
	identityKey: FIELD_LIMITS.id,
	cwd: 4096,
	systemPromptOverride: 1 << 20,
} as const;

export function checkCreateOptions(options: CreateSessionOptions): void {
	if (typeof options !== "object" || options === null) throw invalidArgument("create takes an options object");
	for (const [key, max] of Object.entries(CREATE_LIMITS)) {
		const value = (options as Record<string, unknown>)[key];
		if (value === undefined) continue;
		if (typeof value !== "string") throw invalidArgument(`${key} must be a string, got ${typeof value}`);
		if (value.length > max) {
			throw invalidArgument(`${key} is ${value.length} characters long; at most ${max} are allowed`);
		}
	}
	if (options.source !== undefined && options.source !== "interactive" && options.source !== "cron") {
		throw invalidArgument(`source must be "interactive" or "cron", got ${JSON.stringify(options.source)}`);
	}
	if (options.createdAt !== undefined && !Number.isFinite(Date.parse(options.createdAt))) {
		throw invalidArgument(
			`createdAt must be an ISO 8601 time such as 2025-02-11T10:00:00Z, got ${JSON.stringify(options.createdAt)}`,
		);
	}
	if (
		options.identityKey !== undefined &&
		(typeof options.identityKey !== "string" || options.identityKey.length === 0)
	) {
		throw invalidArgument("identityKey must be a non-empty string such as telegram:12345/user:67890");
	}
	if (options.name !== undefined) checkName(options.name);
	if (options.uptimeSeconds !== undefined) checkSeconds(options.uptimeSeconds);
	if (options.cronJobId !== undefined && typeof options.cronJobId !== "string") {
		throw invalidArgument("cronJobId must be a string");
	}
}

export function checkName(name: unknown): void {
	if (typeof name !== "string") throw invalidArgument(`a session name must be a string, got ${typeof name}`);
	if (name.length > CREATE_LIMITS.name) {
		throw invalidArgument(`a session name is at most ${CREATE_LIMITS.name} characters long, got ${name.length}`);
	}
}

export function checkSeconds(seconds: unknown): void {
	if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) {
		throw invalidArgument(`uptime must be a finite number of seconds >= 0, got ${String(seconds)}`);
	}
}
