import { truncateText } from "./text-cut.js";

/** A short, safe description of a value for error messages: never the whole of a huge string. */
export function describeValue(value: unknown): string {
	if (value === undefined) return "nothing";
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array";
	if (typeof value === "string") return JSON.stringify(truncateText(value, 41));
	if (typeof value === "object") return "an object";
	return String(value);
}

/** `text` cut to at most `max` characters, marked with an ellipsis when cut. */
export function clip(text: string, max = 200): string {
	return truncateText(text, max + 1);
}
