import { isInt, isNumber, isPlain, type Plain } from "./hand-check.js";
import type { SessionMetadata } from "./metadata.js";
import { FORKED_FROM_KEYS, IMPORTED_FROM_KEYS, METADATA_KEYS, METRICS_KEYS, TOTALS_KEYS } from "./schema-keys.js";

/**
 * metadata.json checked by hand: the rules of sessionMetadataSchema and its exact output (a copy
 * with the schema's keys in the schema's order), at a fraction of zod's cost — a listing checks
 * one file per session. Anything not matched exactly (a key the schema does not know, a missing
 * default, a wrong value, a non-plain object) returns undefined, and the caller asks the schema,
 * which decides and words the error. `metadata-fast.test.ts` checks the two against each other.
 * For a store that keeps metadata as JSON files (@agent/session-fs): see store-kit.ts.
 */
export function fastMetadata(value: unknown, options: { reuse?: boolean } = {}): SessionMetadata | undefined {
	if (!isPlain(value) || !onlyKeys(value, METADATA_KEY_SET)) return undefined;
	for (const key of REQUIRED_STRINGS) if (typeof value[key] !== "string") return undefined;
	for (const key of OPTIONAL_STRINGS) if (key in value && typeof value[key] !== "string") return undefined;
	for (const key of WHOLE_COUNTS) if (!isInt(value[key], 0)) return undefined;
	if (value.source !== "interactive" && value.source !== "cron") return undefined;
	if (value.metadataVersion !== 1) return undefined;
	if ("leafSeq" in value && !isInt(value.leafSeq, 1)) return undefined;
	if ("compactionCount" in value && !isInt(value.compactionCount, 0)) return undefined;
	if ("uptimeSeconds" in value && !(isNumber(value.uptimeSeconds) && value.uptimeSeconds >= 0)) return undefined;
	// A value the caller owns whose keys already come in the schema's order is the output itself
	// (a nested object replaced below keeps its place among the keys).
	const reuse = options.reuse === true && inSchemaOrder(value, METADATA_KEYS);
	const out: Record<string, unknown> = reuse ? value : {};
	for (const key of METADATA_KEYS) {
		if (!(key in value)) continue;
		const given = value[key];
		if (key === "metrics") {
			const metrics = copyMetrics(given, reuse);
			if (!metrics) return undefined;
			out.metrics = metrics;
		} else if (key === "forkedFrom") {
			if (!isPlain(given) || !onlyKeys(given, FORKED_FROM_KEY_SET)) return undefined;
			if (typeof given.sessionId !== "string" || !isInt(given.seq, 0)) return undefined;
			out.forkedFrom = { sessionId: given.sessionId, seq: given.seq };
		} else if (key === "importedFrom") {
			if (!isPlain(given) || !onlyKeys(given, IMPORTED_FROM_KEY_SET)) return undefined;
			if (typeof given.format !== "string" || typeof given.sourceId !== "string") return undefined;
			out.importedFrom = { format: given.format, sourceId: given.sourceId };
		} else if (!reuse) out[key] = given;
	}
	return out as SessionMetadata;
}

/** Required here: the schema gives them defaults, and a file without them goes to the schema. */
const REQUIRED_STRINGS = ["id", "createdAt", "lastMessageAt", "model"];
const OPTIONAL_STRINGS = [
	"name",
	"cronJobId",
	"systemPromptOverride",
	"archivedAt",
	"identityKey",
	"thinkingLevel",
	"cwd",
	"createdBy",
	"firstMessage",
];
const WHOLE_COUNTS = ["messageCount", "lastSeq", "logBytes"];
const METADATA_KEY_SET: ReadonlySet<string> = new Set(METADATA_KEYS);
const TOTALS_KEY_SET: ReadonlySet<string> = new Set(TOTALS_KEYS);
const METRICS_KEY_SET: ReadonlySet<string> = new Set(METRICS_KEYS);
const FORKED_FROM_KEY_SET: ReadonlySet<string> = new Set(FORKED_FROM_KEYS);
const IMPORTED_FROM_KEY_SET: ReadonlySet<string> = new Set(IMPORTED_FROM_KEYS);

/** True when every own key of `value` is one of `keys` and no value is undefined. */
function onlyKeys(value: Plain, keys: ReadonlySet<string>): boolean {
	for (const key in value) {
		if (!Object.hasOwn(value, key) || value[key] === undefined || !keys.has(key)) return false;
	}
	return true;
}

/** True when the keys of `value` come in the order they have in `keys` (all of them known). */
function inSchemaOrder(value: Plain, keys: readonly string[]): boolean {
	let last = -1;
	for (const key in value) {
		const index = keys.indexOf(key);
		if (index < last) return false;
		last = index;
	}
	return true;
}

function copyTotals(value: unknown, keys: ReadonlySet<string>, reuse: boolean): Plain | undefined {
	if (!isPlain(value) || !onlyKeys(value, keys)) return undefined;
	const { input, output, cacheRead, cacheWrite, totalTokens, cost, turns } = value;
	if (!isNumber(input) || !isNumber(output) || !isNumber(cacheRead) || !isNumber(cacheWrite)) return undefined;
	if (!isNumber(totalTokens) || !isNumber(cost) || !Number.isSafeInteger(turns)) return undefined;
	if (reuse && keys === TOTALS_KEY_SET && inSchemaOrder(value, TOTALS_KEYS)) return value;
	return { input, output, cacheRead, cacheWrite, totalTokens, cost, turns };
}

function copyMetrics(value: unknown, reuse: boolean): Plain | undefined {
	const out = copyTotals(value, METRICS_KEY_SET, false);
	if (!out) return undefined;
	const byModel = (value as Plain).byModel;
	// A "__proto__" key is dropped by the schema; leave such files to it.
	if (!isPlain(byModel) || Object.hasOwn(byModel, "__proto__")) return undefined;
	const models: Plain = {};
	for (const model in byModel) {
		if (!Object.hasOwn(byModel, model)) return undefined;
		const totals = copyTotals(byModel[model], TOTALS_KEY_SET, reuse);
		if (!totals) return undefined;
		models[model] = totals;
	}
	out.byModel = models;
	return out;
}
