/**
 * The JSON text of a value with every object's keys sorted: two values are the same JSON when
 * their texts are equal. A saved message comes back from the log as parsed JSON (keys absent
 * where they were undefined, dates as strings), so "unchanged" has to mean unchanged as JSON,
 * whatever the key order; a deep-equality library compares JavaScript values instead.
 */
export function canonicalJson(value: unknown): string {
	return JSON.stringify(value, sortKeys) ?? "undefined";
}

export function sameJson(a: unknown, b: unknown): boolean {
	// The keys are nearly always in the same order (both sides came through JSON): the plain text
	// settles it without sorting; only texts that differ are compared sorted.
	return a === b || JSON.stringify(a) === JSON.stringify(b) || canonicalJson(a) === canonicalJson(b);
}

function sortKeys(_key: string, value: unknown): unknown {
	if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
	const object = value as Record<string, unknown>;
	return Object.fromEntries(
		Object.keys(object)
			.sort()
			.map((key) => [key, object[key]]),
	);
}
