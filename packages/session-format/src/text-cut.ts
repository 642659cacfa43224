/**
 * User text, cut and checked on whole code points. A JavaScript string is UTF-16: a character
 * outside the Basic Multilingual Plane (an emoji, many CJK extensions) is two code units, a
 * surrogate pair. `text.slice(0, n)` can keep the first half of one: a lone surrogate, which
 * UTF-8 cannot encode, PostgreSQL refuses (jsonb) or silently replaces (text), and strict JSON
 * readers reject. Every cut of user text goes through here. Lengths stay in UTF-16 code units,
 * as `String.length` and the field limits count them; only the cut point moves, by at most one.
 */

/** With the `u` flag, a range of surrogates matches only those that are not half of a pair. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const LONE_SURROGATES = /[\uD800-\uDFFF]/gu;

function isHighSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
	return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The nearest cut point at or before `index` that does not split a surrogate pair: `index`
 * itself, or one less when the code units on both sides of it are the two halves of one pair.
 */
export function codePointBoundary(text: string, index: number): number {
	if (index <= 0) return 0;
	if (index >= text.length) return text.length;
	return isHighSurrogate(text.charCodeAt(index - 1)) && isLowSurrogate(text.charCodeAt(index)) ? index - 1 : index;
}

/** The longest start of `text` of at most `max` code units that ends on a whole code point. */
export function headOf(text: string, max: number): string {
	return text.length <= max ? text : text.slice(0, codePointBoundary(text, max));
}

/** The longest end of `text` of at most `max` code units that starts on a whole code point. */
export function tailOf(text: string, max: number): string {
	if (text.length <= max) return text;
	const start = text.length - Math.max(0, max);
	// A cut inside a pair moves forward: the tail then holds one unit less, never half a character.
	const boundary = codePointBoundary(text, start);
	return text.slice(boundary === start ? start : start + 1);
}

/**
 * `text` when it has at most `max` code units; otherwise its start on whole code points followed
 * by `marker`, at most `max` units in all (the marker counts).
 */
export function truncateText(text: string, max: number, marker = "…"): string {
	if (text.length <= max) return text;
	return `${headOf(text, Math.max(0, max - marker.length))}${marker}`;
}

/** The index of the first lone surrogate (half of a pair, alone) in `text`, or -1. */
export function loneSurrogateIndex(text: string): number {
	const found = LONE_SURROGATE.exec(text);
	return found === null ? -1 : found.index;
}

/** `text` with every lone surrogate replaced by U+FFFD, as a UTF-8 encoder does (String.prototype.toWellFormed). */
export function toWellFormed(text: string): string {
	return LONE_SURROGATE.test(text) ? text.replace(LONE_SURROGATES, "\uFFFD") : text;
}
