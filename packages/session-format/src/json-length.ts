/**
 * `JSON.stringify(value).length`, counted without building the string: the token estimate of a
 * tool call (chars/4 of its arguments as JSON) is worked out for every call of a session when a
 * compaction is planned, and stringifying every argument (file contents, patches) allocated as
 * much again as the arguments themselves. Values that are not plain JSON data (a toJSON method,
 * a class instance) are stringified as before. No library counts JSON length without
 * serializing, so it is written here; a property test pins it to JSON.stringify.
 */
export function jsonLength(value: unknown): number {
	switch (typeof value) {
		case "string":
			return stringLength(value);
		case "number":
			return Number.isFinite(value) ? String(value).length : 4;
		case "boolean":
			return value ? 4 : 5;
		case "object":
			return value === null ? 4 : objectLength(value);
		default:
			return JSON.stringify(value)?.length ?? 0;
	}
}

function objectLength(value: object): number {
	if (Array.isArray(value)) {
		let length = 2 + Math.max(0, value.length - 1);
		for (const item of value) length += isSkipped(item) ? 4 : jsonLength(item);
		return length;
	}
	const proto = Object.getPrototypeOf(value);
	if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === "function") {
		return JSON.stringify(value).length;
	}
	let length = 2;
	let first = true;
	for (const key of Object.keys(value)) {
		const item = (value as Record<string, unknown>)[key];
		if (isSkipped(item)) continue;
		length += (first ? 0 : 1) + stringLength(key) + 1 + jsonLength(item);
		first = false;
	}
	return length;
}

function isSkipped(value: unknown): boolean {
	return value === undefined || typeof value === "function" || typeof value === "symbol";
}

// What JSON.stringify adds to an ASCII character: 1 for \" \\ \b \t \n \f \r, 5 for other controls (\uXXXX).
const ASCII_EXTRA = new Uint8Array(128);
for (let c = 0; c < 0x20; c++) ASCII_EXTRA[c] = 5;
for (const c of [34, 92, 8, 9, 10, 12, 13]) ASCII_EXTRA[c] = 1;

/** A string's JSON length: its quotes, plus one for each \" \\ \b \t \n \f \r, five for other controls and lone surrogates (\uXXXX). */
function stringLength(text: string): number {
	const n = text.length;
	let extra = 0;
	for (let i = 0; i < n; i++) {
		const c = text.charCodeAt(i);
		// A table lookup, not a chain of comparisons: this loop runs over every character of every
		// tool call's arguments when a compaction is planned.
		if (c < 128) extra += ASCII_EXTRA[c] as number;
		else if (c < 0xd800 || c > 0xdfff) continue;
		else if (c <= 0xdbff && i + 1 < n && isLowSurrogate(text.charCodeAt(i + 1))) i++;
		else extra += 5;
	}
	return n + 2 + extra;
}

function isLowSurrogate(c: number): boolean {
	return c >= 0xdc00 && c <= 0xdfff;
}
