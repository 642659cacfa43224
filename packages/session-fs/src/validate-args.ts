import type { CreateSessionOptions } from "@agent/session-format";
import { invalidArgument } from "./errors.js";

export function checkCreateOptions(options: CreateSessionOptions): void {
	if (typeof options !== "object" || options === null) throw invalidArgument("create takes an options object");
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
	if (options.cronJobId !== undefined && typeof options.cronJobId !== "string") {
		throw invalidArgument("cronJobId must be a string");
	}
}

export function checkName(name: unknown): void {
	if (typeof name !== "string") throw invalidArgument(`a session name must be a string, got ${typeof name}`);
}

export function checkSeconds(seconds: unknown): void {
	if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) {
		throw invalidArgument(`uptime must be a finite number of seconds >= 0, got ${String(seconds)}`);
	}
}
