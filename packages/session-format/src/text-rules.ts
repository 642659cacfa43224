import { AgentSessionError } from "./errors.js";
import { FIELD_LIMITS } from "./limits.js";
import { loneSurrogateIndex, toWellFormed } from "./text-cut.js";

/**
 * What text every store holds the same (docs/session-format.md, "Text every store holds"):
 *
 * - No lone surrogate anywhere (half of a UTF-16 pair, alone): UTF-8 cannot encode it, PostgreSQL
 *   refuses it, strict JSON readers reject it. Appends and arguments holding one are refused.
 * - No U+0000 in a name: the strings a session is listed, filtered and labelled by (its name,
 *   identity key, working directory, model, system prompt, labels, tool and model names, ids).
 *   PostgreSQL's text and jsonb cannot hold it. Free text (message text, thinking, tool arguments
 *   and results, summaries, custom data) keeps U+0000 exactly in every store: JSON escapes it.
 *
 * A log written before these rules may hold either; it reads back as it is, `verify` reports it
 * (`unportable_text`), and a copy into PostgreSQL stores U+FFFD in its place (portableRecord).
 */

/** Why `text` cannot be a name, or undefined when it can. */
export function nameTextProblem(text: string): string | undefined {
	const nul = text.indexOf("\u0000");
	if (nul >= 0) return `holds U+0000 (a NUL character) at index ${nul}, which no store keeps in a name`;
	return freeTextProblem(text);
}

/** Why `text` cannot be stored anywhere, or undefined when it can. */
export function freeTextProblem(text: string): string | undefined {
	const lone = loneSurrogateIndex(text);
	if (lone < 0) return undefined;
	return `holds a lone surrogate at index ${lone} (half of a UTF-16 surrogate pair, e.g. half an emoji cut off by a slice), which is not text; send whole characters`;
}

/**
 * The first place in `value` (any JSON value: a record, tool arguments) where a string or an
 * object key holds a lone surrogate, as a dotted path with the problem; undefined when none does.
 * Allocates nothing unless it finds one.
 */
export function findLoneSurrogate(value: unknown): { path: string; problem: string } | undefined {
	if (typeof value === "string") {
		const problem = freeTextProblem(value);
		return problem === undefined ? undefined : { path: "", problem };
	}
	if (typeof value !== "object" || value === null) return undefined;
	if (Array.isArray(value)) {
		for (let i = 0; i < value.length; i++) {
			const found = findLoneSurrogate(value[i]);
			if (found) return { path: joinPath(String(i), found.path), problem: found.problem };
		}
		return undefined;
	}
	const object = value as Record<string, unknown>;
	for (const key in object) {
		if (!Object.hasOwn(object, key)) continue;
		const inKey = freeTextProblem(key);
		if (inKey !== undefined) return { path: key, problem: `has a key that ${inKey}` };
		const found = findLoneSurrogate(object[key]);
		if (found) return { path: joinPath(key, found.path), problem: found.problem };
	}
	return undefined;
}

function joinPath(head: string, rest: string): string {
	return rest.length === 0 ? head : `${head}.${rest}`;
}

/** The name fields of each record type (top-level keys) and how long each may be: FIELD_LIMITS. */
export const RECORD_NAME_FIELDS: Readonly<Record<string, ReadonlyArray<readonly [string, number]>>> = {
	message: [
		["toolCallId", FIELD_LIMITS.id],
		["toolName", FIELD_LIMITS.name],
		["api", FIELD_LIMITS.name],
		["provider", FIELD_LIMITS.name],
		["model", FIELD_LIMITS.name],
	],
	model_change: [
		["provider", FIELD_LIMITS.name],
		["modelId", FIELD_LIMITS.name],
	],
	thinking_level_change: [["thinkingLevel", FIELD_LIMITS.name]],
	session_info: [["name", FIELD_LIMITS.title]],
	label: [["label", FIELD_LIMITS.title]],
	custom: [["customType", FIELD_LIMITS.name]],
	custom_message: [["customType", FIELD_LIMITS.name]],
	turn: [
		["turnId", FIELD_LIMITS.id],
		["model", FIELD_LIMITS.name * 2],
	],
};

/** The name fields of content blocks, by block type. */
export const BLOCK_NAME_FIELDS: Readonly<Record<string, ReadonlyArray<readonly [string, number]>>> = {
	image: [["mimeType", FIELD_LIMITS.mimeType]],
	toolCall: [
		["id", FIELD_LIMITS.id],
		["name", FIELD_LIMITS.name],
	],
};

/** The name fields of the session header (the creation facts on a log's first record). */
const HEADER_NAME_FIELDS = [
	"name",
	"model",
	"cronJobId",
	"systemPromptOverride",
	"identityKey",
	"cwd",
	"createdBy",
] as const;

function invalidArgument(message: string): AgentSessionError {
	return new AgentSessionError("INVALID_ARGUMENT", `@agent/session-format: ${message}`);
}

/**
 * Checks a string argument of a store method (a name, an identity key, a filter): a string with
 * no lone surrogate, and no U+0000 unless `freeText`. Throws INVALID_ARGUMENT naming `field`.
 */
export function checkTextArgument(field: string, value: unknown, options: { freeText?: boolean } = {}): void {
	if (typeof value !== "string") throw invalidArgument(`${field} must be a string, got ${typeof value}`);
	const problem = options.freeText ? freeTextProblem(value) : nameTextProblem(value);
	if (problem !== undefined) throw invalidArgument(`${field} ${problem}`);
}

/**
 * Whether a stored record breaks the text rules (a log written before them): the first path and
 * why. `verify` reports it; a copy into PostgreSQL stores the record as portableRecord makes it.
 */
export function unportableText(record: object): { path: string; problem: string } | undefined {
	const named = nameFieldProblem(record);
	return named ?? findLoneSurrogate(record);
}

function nameFieldProblem(record: object): { path: string; problem: string } | undefined {
	const fields = record as Record<string, unknown>;
	for (const [key] of RECORD_NAME_FIELDS[String(fields.recordType)] ?? []) {
		const value = fields[key];
		if (typeof value === "string" && value.includes("\u0000")) return { path: key, problem: "holds U+0000" };
	}
	const header = fields.session as Record<string, unknown> | undefined;
	if (header && typeof header === "object") {
		for (const key of HEADER_NAME_FIELDS) {
			const value = header[key];
			if (typeof value === "string" && value.includes("\u0000")) {
				return { path: `session.${key}`, problem: "holds U+0000" };
			}
		}
	}
	return undefined;
}

/**
 * `record` as every store can hold it: lone surrogates (in any string or key) and U+0000 in its
 * name fields replaced by U+FFFD. The same object when there was nothing to replace.
 */
export function portableRecord<T extends object>(record: T): T {
	if (unportableText(record) === undefined) return record;
	const copy = wellFormedCopy(record) as Record<string, unknown>;
	for (const [key] of RECORD_NAME_FIELDS[String(copy.recordType)] ?? []) {
		if (typeof copy[key] === "string") copy[key] = withoutNul(copy[key] as string);
	}
	const header = copy.session as Record<string, unknown> | undefined;
	if (header && typeof header === "object") {
		for (const key of HEADER_NAME_FIELDS) {
			if (typeof header[key] === "string") header[key] = withoutNul(header[key] as string);
		}
	}
	return copy as T;
}

function withoutNul(text: string): string {
	return text.replaceAll("\u0000", "\uFFFD");
}

function wellFormedCopy(value: unknown): unknown {
	if (typeof value === "string") return toWellFormed(value);
	if (typeof value !== "object" || value === null) return value;
	if (Array.isArray(value)) return value.map(wellFormedCopy);
	const out: Record<string, unknown> = {};
	for (const key in value as Record<string, unknown>) {
		if (!Object.hasOwn(value, key)) continue;
		Object.defineProperty(out, toWellFormed(key), {
			value: wellFormedCopy((value as Record<string, unknown>)[key]),
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	return out;
}
