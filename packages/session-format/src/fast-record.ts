import {
	BAD,
	type BaseFill,
	fields,
	isInt,
	isNumber,
	isPlain,
	isString,
	keep,
	keyState,
	nonEmpty,
	ORDERED,
	optionalString,
	type Plain,
	strings,
	UNORDERED,
} from "./hand-check.js";
import { COMPACTION_TRIGGERS, MESSAGE_ROLES, SESSION_SOURCES, STOP_REASONS, TURN_OUTCOMES } from "./record-kinds.js";
import type { SessionRecord } from "./records.js";
import {
	COMPACTION_KEYS,
	COST_KEYS,
	CUSTOM_KEYS,
	FORKED_FROM_KEYS,
	HEADER_KEYS,
	IMAGE_KEYS,
	IMPORTED_FROM_KEYS,
	MESSAGE_KEYS,
	MODEL_CHANGE_KEYS,
	PATH_MODEL_KEYS,
	PATH_SETTINGS_KEYS,
	SESSION_INFO_KEYS,
	TEXT_KEYS,
	THINKING_KEYS,
	THINKING_LEVEL_KEYS,
	TOOL_CALL_KEYS,
	TURN_ERROR_KEYS,
	TURN_KEYS,
	USAGE_KEYS,
} from "./schema-keys.js";

/**
 * The hot record types (message, compaction, model_change, thinking_level_change, session_info,
 * custom, turn; with the session header of a log's first record) checked by hand: the rules of
 * sessionRecordSchema, and its exact output (a copy with
 * the schema's keys in the schema's order; `details` and `data` by reference, as z.unknown()
 * passes them), without zod's per-call machinery and garbage — a resume parses every line it
 * reads, and an append validates every record. Anything not matched exactly (another type, a
 * key the schema does not know, a missing default, undefined, a non-plain object, any wrong
 * value) returns undefined: the caller then asks zod, which decides and words the error.
 * `fast-record.test.ts` checks the two against each other on random and damaged records.
 */
export function fastRecord(value: unknown, options: FastRecordOptions = {}): SessionRecord | undefined {
	if (!isPlain(value)) return undefined;
	const fill = options.fill;
	const reuse = options.reuse === true && fill === undefined;
	const record = ofType(value, reuse, fill);
	if (!record || !("session" in value)) return record;
	// The first record's header: checked here for every type (which kept it by reference).
	const header = sessionHeader(value.session, reuse);
	if (!header) return undefined;
	// A record reused as it is belongs to the caller, who handed it over (reuse): its header may be replaced.
	(record as Plain).session = header;
	return record;
}

function ofType(value: Plain, reuse: boolean, fill: BaseFill | undefined): SessionRecord | undefined {
	switch (value.recordType) {
		case "message":
			return message(value, reuse, fill);
		case "compaction":
			return compaction(value, reuse, fill);
		case "model_change":
			return simple(value, MODEL_CHANGE_KEYS, reuse, fill, () => nonEmpty(value.provider) && nonEmpty(value.modelId));
		case "thinking_level_change":
			return simple(value, THINKING_LEVEL_KEYS, reuse, fill, () => nonEmpty(value.thinkingLevel));
		case "session_info":
			return simple(value, SESSION_INFO_KEYS, reuse, fill, () => !("name" in value) || typeof value.name === "string");
		case "custom":
			return simple(value, CUSTOM_KEYS, reuse, fill, () => nonEmpty(value.customType));
		case "turn":
			return turn(value, reuse, fill);
		default:
			return undefined;
	}
}

export interface FastRecordOptions {
	/**
	 * The value is fresh JSON.parse output nobody else holds: objects whose keys already come in
	 * the schema's order (every line this library writes) are returned as they are, not copied.
	 */
	reuse?: boolean;
	/**
	 * schemaVersion, seq and timestamp to use instead of the value's (an append fills them in):
	 * the output is the schema's for `{ ...value, ...fill }`, without that copy being made.
	 */
	fill?: BaseFill;
}

const HEADER_STRING_KEYS = ["name", "model", "cronJobId", "systemPromptOverride", "identityKey", "cwd", "createdBy"];
const USAGE_NUMBER_KEYS = USAGE_KEYS.slice(0, 5);
const MESSAGE_STRING_KEYS = ["toolName", "api", "provider", "model", "errorMessage"];
const ROLES: ReadonlySet<string> = new Set(MESSAGE_ROLES);
const STOPS: ReadonlySet<string> = new Set(STOP_REASONS);
const TRIGGERS: ReadonlySet<string> = new Set(COMPACTION_TRIGGERS);
const OUTCOMES: ReadonlySet<string> = new Set(TURN_OUTCOMES);
const SOURCES: ReadonlySet<string> = new Set(SESSION_SOURCES);

/** True when the fields every record has are right (schemaVersion, seq and timestamp from `fill` when given). */
function baseOk(value: Plain, fill?: BaseFill): boolean {
	const base = fill ?? value;
	if (!isInt(base.schemaVersion, 0) || !isInt(base.seq, 1) || !nonEmpty(base.timestamp)) return false;
	return !("parentSeq" in value) || value.parentSeq === null || isInt(value.parentSeq, 1);
}

function simple(
	value: Plain,
	keys: readonly string[],
	reuse: boolean,
	fill: BaseFill | undefined,
	fieldsOk: () => boolean,
): SessionRecord | undefined {
	const state = keyState(value, keys);
	if (state === BAD || !baseOk(value, fill) || !fieldsOk()) return undefined;
	return keep(value, keys, state, reuse, fill) as SessionRecord;
}

function message(value: Plain, reuse: boolean, fill?: BaseFill): SessionRecord | undefined {
	const state = keyState(value, MESSAGE_KEYS);
	if (state === BAD || !baseOk(value, fill) || !ROLES.has(value.role as string)) return undefined;
	if ("toolCallId" in value && !nonEmpty(value.toolCallId)) return undefined;
	for (const key of MESSAGE_STRING_KEYS) {
		if (key in value && !isString(value[key])) return undefined;
	}
	if ("isError" in value && typeof value.isError !== "boolean") return undefined;
	if ("stopReason" in value && !STOPS.has(value.stopReason as string)) return undefined;
	const content = contentBlocks(value.content, reuse);
	if (!content) return undefined;
	let usageOut: Plain | undefined;
	if ("usage" in value) {
		usageOut = usage(value.usage, reuse);
		if (!usageOut) return undefined;
	}
	if (reuse && state === ORDERED && content === value.content && usageOut === value.usage) {
		return value as SessionRecord;
	}
	const out = keep(value, MESSAGE_KEYS, UNORDERED, false, fill);
	out.content = content;
	if (usageOut) out.usage = usageOut;
	return out as SessionRecord;
}

function usage(value: unknown, reuse: boolean): Plain | undefined {
	if (!isPlain(value)) return undefined;
	const state = keyState(value, USAGE_KEYS);
	if (state === BAD) return undefined;
	for (const key of USAGE_NUMBER_KEYS) if (!isNumber(value[key])) return undefined;
	let cost: Plain | undefined;
	if ("cost" in value) {
		const given = value.cost;
		if (!isPlain(given)) return undefined;
		const costState = keyState(given, COST_KEYS);
		if (costState === BAD) return undefined;
		for (const key of COST_KEYS) if (!isNumber(given[key])) return undefined;
		cost = keep(given, COST_KEYS, costState, reuse);
	}
	if (reuse && state === ORDERED && cost === value.cost) return value;
	const out = keep(value, USAGE_KEYS, UNORDERED, false);
	if (cost) out.cost = cost;
	return out;
}

function contentBlocks(value: unknown, reuse: boolean): unknown[] | undefined {
	if (!Array.isArray(value)) return undefined;
	let out: unknown[] | undefined = reuse ? undefined : new Array(value.length);
	for (let i = 0; i < value.length; i++) {
		const given = value[i];
		const block = contentBlock(given, reuse);
		if (!block) return undefined;
		if (block !== given && !out) out = value.slice(0, i);
		if (out) out[i] = block;
	}
	return out ?? value;
}

function contentBlock(block: unknown, reuse: boolean): Plain | undefined {
	if (!isPlain(block)) return undefined;
	switch (block.type) {
		case "text": {
			const state = keyState(block, TEXT_KEYS);
			if (state === BAD || !isString(block.text) || !optionalString(block, "textSignature")) return undefined;
			return keep(block, TEXT_KEYS, state, reuse);
		}
		case "thinking": {
			const state = keyState(block, THINKING_KEYS);
			if (
				state === BAD ||
				!isString(block.thinking) ||
				!optionalString(block, "thinkingSignature") ||
				("redacted" in block && typeof block.redacted !== "boolean")
			) {
				return undefined;
			}
			return keep(block, THINKING_KEYS, state, reuse);
		}
		case "toolCall": {
			const state = keyState(block, TOOL_CALL_KEYS);
			if (state === BAD || !nonEmpty(block.id) || !nonEmpty(block.name) || !optionalString(block, "thoughtSignature")) {
				return undefined;
			}
			const args = block.arguments;
			// A "__proto__" key is an own key like any other (kept as data, as the schema does).
			if (!isPlain(args)) return undefined;
			for (const key in args) {
				if (!Object.hasOwn(args, key) || args[key] === undefined) return undefined;
			}
			if (reuse && state === ORDERED) return block;
			const out = keep(block, TOOL_CALL_KEYS, UNORDERED, false);
			out.arguments = reuse ? args : { ...args };
			return out;
		}
		case "image": {
			const state = keyState(block, IMAGE_KEYS);
			if (state === BAD || !isString(block.data) || !nonEmpty(block.mimeType)) return undefined;
			return keep(block, IMAGE_KEYS, state, reuse);
		}
		default:
			return undefined;
	}
}

function compaction(value: Plain, reuse: boolean, fill?: BaseFill): SessionRecord | undefined {
	const state = keyState(value, COMPACTION_KEYS);
	if (
		state === BAD ||
		!baseOk(value, fill) ||
		!isInt(value.firstKeptSeq, 1) ||
		!isString(value.summary) ||
		!isInt(value.tokensBefore, 0) ||
		("tokensAfter" in value && !isInt(value.tokensAfter, 0)) ||
		("trigger" in value && !TRIGGERS.has(value.trigger as string)) ||
		!strings(value.readFiles) ||
		!strings(value.modifiedFiles)
	) {
		return undefined;
	}
	let settings: Plain | undefined;
	if ("pathSettings" in value) {
		settings = pathSettings(value.pathSettings, reuse);
		if (!settings) return undefined;
	}
	if (reuse && state === ORDERED && settings === value.pathSettings) return value as SessionRecord;
	const out = keep(value, COMPACTION_KEYS, UNORDERED, false, fill);
	if (!reuse) {
		out.readFiles = (value.readFiles as string[]).slice();
		out.modifiedFiles = (value.modifiedFiles as string[]).slice();
	}
	if (settings) out.pathSettings = settings;
	return out as SessionRecord;
}

function pathSettings(value: unknown, reuse: boolean): Plain | undefined {
	if (!isPlain(value)) return undefined;
	const state = keyState(value, PATH_SETTINGS_KEYS);
	if (state === BAD || ("thinkingLevel" in value && !nonEmpty(value.thinkingLevel))) return undefined;
	let model: Plain | undefined;
	if ("model" in value) {
		model = fields(value.model, PATH_MODEL_KEYS, reuse, (given) => nonEmpty(given.provider) && nonEmpty(given.modelId));
		if (!model) return undefined;
	}
	if (reuse && state === ORDERED && model === value.model) return value;
	const out = keep(value, PATH_SETTINGS_KEYS, UNORDERED, false);
	if (model) out.model = model;
	return out;
}

function turn(value: Plain, reuse: boolean, fill?: BaseFill): SessionRecord | undefined {
	const state = keyState(value, TURN_KEYS);
	if (
		state === BAD ||
		!baseOk(value, fill) ||
		!nonEmpty(value.turnId) ||
		!OUTCOMES.has(value.outcome as string) ||
		!nonEmpty(value.startedAt) ||
		!(isNumber(value.durationMs) && value.durationMs >= 0) ||
		!optionalString(value, "model") ||
		("firstSeq" in value && !isInt(value.firstSeq, 1)) ||
		("lastSeq" in value && !isInt(value.lastSeq, 1))
	) {
		return undefined;
	}
	let usageOut: Plain | undefined;
	if ("usage" in value) {
		usageOut = usage(value.usage, reuse);
		if (!usageOut) return undefined;
	}
	let error: Plain | undefined;
	if ("error" in value) {
		error = fields(value.error, TURN_ERROR_KEYS, reuse, (given) => isString(given.code) && isString(given.message));
		if (!error) return undefined;
	}
	if (reuse && state === ORDERED && usageOut === value.usage && error === value.error) return value as SessionRecord;
	const out = keep(value, TURN_KEYS, UNORDERED, false, fill);
	if (usageOut) out.usage = usageOut;
	if (error) out.error = error;
	return out as SessionRecord;
}

/** The session header a log's first record carries (sessionHeaderSchema). */
function sessionHeader(value: unknown, reuse: boolean): Plain | undefined {
	if (!isPlain(value)) return undefined;
	const state = keyState(value, HEADER_KEYS);
	if (state === BAD || !nonEmpty(value.createdAt)) return undefined;
	for (const key of HEADER_STRING_KEYS) if (!optionalString(value, key)) return undefined;
	if ("source" in value && !SOURCES.has(value.source as string)) return undefined;
	if ("uptimeSeconds" in value && !(isNumber(value.uptimeSeconds) && value.uptimeSeconds >= 0)) return undefined;
	const importedFrom = nestedFields(value, "importedFrom", IMPORTED_FROM_KEYS, reuse, (given) => {
		return isString(given.format) && isString(given.sourceId);
	});
	const forkedFrom = nestedFields(value, "forkedFrom", FORKED_FROM_KEYS, reuse, (given) => {
		return isString(given.sessionId) && isInt(given.seq, 0);
	});
	if (importedFrom === null || forkedFrom === null) return undefined;
	if (reuse && state === ORDERED && importedFrom === value.importedFrom && forkedFrom === value.forkedFrom)
		return value;
	const out = keep(value, HEADER_KEYS, UNORDERED, false);
	if (importedFrom) out.importedFrom = importedFrom;
	if (forkedFrom) out.forkedFrom = forkedFrom;
	return out;
}

/** `value[key]` checked by `fields`: undefined when absent, null when present and refused. */
function nestedFields(
	value: Plain,
	key: string,
	keys: readonly string[],
	reuse: boolean,
	ok: (given: Plain) => boolean,
): Plain | undefined | null {
	if (!(key in value)) return undefined;
	return fields(value[key], keys, reuse, ok) ?? null;
}
