/**
 * How deep a record may nest objects and arrays. Deeper lines are rejected when read or
 * appended: JSON.parse copes with any depth, but JSON.stringify and every recursive consumer
 * (token estimation, UIs, other languages' parsers) overflow their stacks long before a
 * few hundred thousand levels.
 */
export const MAX_NESTING_DEPTH = 512;

/**
 * Where `value` first nests deeper than `limit` levels: the top-level field it happens under
 * (`""` when the value itself is the culprit), or undefined when it stays within the limit.
 * Every record read or appended is checked, so the walk allocates nothing (for-in, no key or
 * value arrays). It recurses, but never more than `limit` frames deep, whatever the input's
 * depth: far inside the stack.
 */
export function findExcessiveNesting(value: unknown, limit: number = MAX_NESTING_DEPTH): string | undefined {
	if (typeof value !== "object" || value === null) return undefined;
	if (limit < 1) return "";
	if (Array.isArray(value)) {
		for (let i = 0; i < value.length; i++) if (nestsTooDeep(value[i], 2, limit)) return String(i);
		return undefined;
	}
	const object = value as Record<string, unknown>;
	for (const key in object) {
		if (Object.hasOwn(object, key) && nestsTooDeep(object[key], 2, limit)) return key;
	}
	return undefined;
}

/** True when `value`, an object or array at `depth`, is deeper than `limit` or holds one that is. */
function nestsTooDeep(value: unknown, depth: number, limit: number): boolean {
	if (typeof value !== "object" || value === null) return false;
	if (depth > limit) return true;
	if (Array.isArray(value)) {
		for (let i = 0; i < value.length; i++) if (nestsTooDeep(value[i], depth + 1, limit)) return true;
		return false;
	}
	const object = value as Record<string, unknown>;
	for (const key in object) {
		if (Object.hasOwn(object, key) && nestsTooDeep(object[key], depth + 1, limit)) return true;
	}
	return false;
}

/**
 * Caps on the identifier-like string fields of records, enforced when a record is appended (never
 * when one is read: old logs read as before). Free text (message text, summaries, tool arguments,
 * thinking, signatures) is not capped; these fields name things and are shown, compared and
 * indexed, so a megabyte in one of them is an attack or a bug, not data.
 */
export const FIELD_LIMITS = {
	/** An image's mimeType. */
	mimeType: 255,
	/** A tool call's id, a tool result's toolCallId, a turn id. */
	id: 1024,
	/** A tool's name, a provider, a model, an api, a customType, a thinking level. */
	name: 256,
	/** A session name, a label. */
	title: 1024,
} as const;
