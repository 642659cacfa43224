/** A short, safe description of a value for error messages: never the whole of a huge string. */
export function describeValue(value: unknown): string {
	if (value === undefined) return "nothing";
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array";
	if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
	if (typeof value === "object") return "an object";
	return String(value);
}

/** `text` cut to at most `max` characters, marked with an ellipsis when cut. */
export function clip(text: string, max = 200): string {
	return text.length > max ? `${text.slice(0, max)}…` : text;
}
