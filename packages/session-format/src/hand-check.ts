/**
 * The pieces the hand checks (fast-record.ts, metadata-fast.ts) are made of: they accept exactly
 * what a zod schema accepts for the common case, and copy it into the schema's key order, without
 * zod's per-call cost.
 */

export type Plain = Record<string, unknown>;

/** A plain object (what JSON.parse makes), not an array, class instance or null-prototype object. */
export function isPlain(value: unknown): value is Plain {
	return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

export const isString = (value: unknown): value is string => typeof value === "string";
export const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.length > 0;
export const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
export const isInt = (value: unknown, min: number): value is number =>
	Number.isSafeInteger(value) && (value as number) >= min;

export function optionalString(value: Plain, key: string): boolean {
	return !(key in value) || isString(value[key]);
}

export function strings(value: unknown): value is string[] {
	if (!Array.isArray(value)) return false;
	for (const item of value) if (typeof item !== "string") return false;
	return true;
}

export const BAD = 0;
export const UNORDERED = 1;
export const ORDERED = 2;
export type KeyState = typeof BAD | typeof UNORDERED | typeof ORDERED;

/** BAD unless every own key of `value` is one of `keys` with a defined value; ORDERED when they also come in that order. */
export function keyState(value: Plain, keys: readonly string[]): KeyState {
	let last = -1;
	let state: KeyState = ORDERED;
	for (const key in value) {
		if (!Object.hasOwn(value, key) || value[key] === undefined) return BAD;
		const index = keys.indexOf(key);
		if (index < 0) return BAD;
		if (index < last) state = UNORDERED;
		last = index;
	}
	return state;
}

/** The fields an append fills in. */
export interface BaseFill {
	schemaVersion: number;
	seq: number;
	timestamp: string;
}

/**
 * `value` itself when it may be reused as it is, else a copy of its present keys (and those of
 * `fill`, which win) in the order of `keys`.
 */
export function keep(value: Plain, keys: readonly string[], state: KeyState, reuse: boolean, fill?: BaseFill): Plain {
	if (reuse && state === ORDERED) return value;
	const out: Plain = {};
	for (const key of keys) {
		if (fill && key in fill) out[key] = fill[key as keyof BaseFill];
		else if (key in value) out[key] = value[key];
	}
	return out;
}

/** A small object of plain fields (`ok` checks them): itself when it may be reused, else a copy in `keys` order. */
export function fields(
	value: unknown,
	keys: readonly string[],
	reuse: boolean,
	ok: (given: Plain) => boolean,
): Plain | undefined {
	if (!isPlain(value)) return undefined;
	const state = keyState(value, keys);
	if (state === BAD || !ok(value)) return undefined;
	return keep(value, keys, state, reuse);
}
