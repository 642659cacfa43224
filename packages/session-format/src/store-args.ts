import { AgentSessionError } from "./errors.js";
import { FIELD_LIMITS } from "./limits.js";
import { SESSION_SOURCES } from "./record-kinds.js";
import type { AcceptedTurn, CreateSessionOptions, ListOptions, SearchOptions } from "./store-contract.js";
import { headOf } from "./text-cut.js";
import { checkTextArgument } from "./text-rules.js";
import { MAX_SEARCH_QUERY_CHARS } from "./text-search.js";

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
	createdBy: FIELD_LIMITS.name,
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
		checkTextArgument(key, value);
	}
	if (options.importedFrom !== undefined) {
		const { format, sourceId } = (options.importedFrom ?? {}) as { format?: unknown; sourceId?: unknown };
		checkTextArgument("importedFrom.format", format);
		checkTextArgument("importedFrom.sourceId", sourceId);
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
	checkTextArgument("name", name);
}

export function checkLabel(label: unknown): void {
	if (typeof label !== "string") throw invalidArgument(`a label must be a string, got ${typeof label}`);
	if (label.length > FIELD_LIMITS.title) {
		throw invalidArgument(`a label is at most ${FIELD_LIMITS.title} characters long, got ${label.length}`);
	}
	checkTextArgument("label", label);
}

/** An identity key to look a session up by: what a session can be created with. */
export function checkIdentityKey(identityKey: unknown): void {
	if (typeof identityKey !== "string" || identityKey.length === 0) {
		throw invalidArgument("identityKey must be a non-empty string such as telegram:12345/user:67890");
	}
	checkTextArgument("identityKey", identityKey);
}

function checkLimit(what: string, limit: unknown): void {
	if (limit !== undefined && (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1)) {
		throw invalidArgument(`${what} limit must be a whole number >= 1, got ${String(limit)}`);
	}
}

function checkArchived(archived: unknown): void {
	if (archived !== undefined && archived !== true && archived !== false && archived !== "only") {
		throw invalidArgument(`archived must be true, false or "only", got ${JSON.stringify(archived)}`);
	}
}

/** The options of `list`, checked alike by every store before it reads anything. */
export function checkListOptions(options: ListOptions): void {
	if (typeof options !== "object" || options === null) throw invalidArgument("list takes an options object");
	checkLimit("list", options.limit);
	checkArchived(options.archived);
	if (options.source !== undefined && !SESSION_SOURCES.includes(options.source)) {
		throw invalidArgument(`source must be "interactive" or "cron", got ${JSON.stringify(options.source)}`);
	}
	if (options.search !== undefined) checkTextArgument("search", options.search);
	if (options.identityKey !== undefined) checkTextArgument("identityKey", options.identityKey);
	if (options.cwd !== undefined) checkTextArgument("cwd", options.cwd);
	if (options.createdBy !== undefined) checkTextArgument("createdBy", options.createdBy);
	if (options.cursor !== undefined && typeof options.cursor !== "string") {
		throw invalidArgument(`cursor must be the nextCursor of a previous page, got ${typeof options.cursor}`);
	}
}

/**
 * The arguments of `search`, checked alike by every store. The query is free text (message text
 * may hold U+0000, so a query may look for it); it must hold no lone surrogate.
 */
export function checkSearchArgs(query: unknown, options: SearchOptions): void {
	if (typeof query !== "string") throw invalidArgument(`search needs a text, got ${typeof query}`);
	if (query.length > MAX_SEARCH_QUERY_CHARS * 4) {
		throw invalidArgument(`search takes at most ${MAX_SEARCH_QUERY_CHARS} characters, got ${query.length}`);
	}
	checkTextArgument("query", query, { freeText: true });
	if (typeof options !== "object" || options === null) throw invalidArgument("search takes an options object");
	checkLimit("search", options.limit);
	checkArchived(options.archived);
	if (options.cwd !== undefined) checkTextArgument("cwd", options.cwd);
	if (options.createdBy !== undefined) checkTextArgument("createdBy", options.createdBy);
}

export function checkSeconds(seconds: unknown): void {
	if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) {
		throw invalidArgument(`uptime must be a finite number of seconds >= 0, got ${String(seconds)}`);
	}
}

/** A turn id as the turn journal keys it (a file name on disk): letters, digits, `-` and `_`. */
const TURN_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function checkTurnId(turnId: unknown): void {
	if (typeof turnId !== "string" || !TURN_ID.test(turnId)) {
		throw invalidArgument(
			`a turn id must be 1 to 128 letters, digits, "-" or "_", got ${JSON.stringify(headOf(String(turnId), 40))}`,
		);
	}
}

/** An accepted turn as the turn journal takes it (see AcceptedTurn). */
export function checkAcceptedTurn(turn: AcceptedTurn): void {
	if (typeof turn !== "object" || turn === null) throw invalidArgument("an accepted turn must be an object");
	checkTurnId(turn.turnId);
	if (!Number.isFinite(Date.parse(turn.acceptedAt))) throw invalidArgument("acceptedAt must be an ISO 8601 time");
	if (!Array.isArray(turn.content)) throw invalidArgument("an accepted turn's content must be an array of blocks");
}
