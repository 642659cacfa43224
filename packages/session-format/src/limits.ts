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
 * Iterative, so it never overflows the stack itself.
 */
export function findExcessiveNesting(value: unknown, limit: number = MAX_NESTING_DEPTH): string | undefined {
	if (typeof value !== "object" || value === null) return undefined;
	const stack: Array<{ value: object; depth: number; field: string }> = [{ value, depth: 1, field: "" }];
	while (stack.length > 0) {
		const item = stack.pop() as { value: object; depth: number; field: string };
		if (item.depth > limit) return item.field;
		const entries: unknown[] = Array.isArray(item.value) ? item.value : Object.values(item.value);
		const keys = Array.isArray(item.value) ? undefined : Object.keys(item.value);
		for (let i = 0; i < entries.length; i++) {
			const child = entries[i];
			if (typeof child !== "object" || child === null) continue;
			const field = item.depth === 1 ? (keys ? (keys[i] as string) : String(i)) : item.field;
			stack.push({ value: child, depth: item.depth + 1, field });
		}
	}
	return undefined;
}
