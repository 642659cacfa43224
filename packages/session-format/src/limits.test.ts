import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findExcessiveNesting } from "./limits.js";

/** Levels of objects and arrays in `value` (a scalar has none), the plain recursive way. */
function depthOf(value: unknown): number {
	if (typeof value !== "object" || value === null) return 0;
	const children = Array.isArray(value) ? value : Object.values(value);
	return 1 + Math.max(0, ...children.map(depthOf));
}

describe("findExcessiveNesting", () => {
	it("finds nesting exactly when the value is deeper than the limit, under a field that is", () => {
		fc.assert(
			fc.property(fc.jsonValue({ maxDepth: 7 }), fc.integer({ min: 0, max: 8 }), (value, limit) => {
				const found = findExcessiveNesting(value, limit);
				if (depthOf(value) <= limit) {
					expect(found).toBeUndefined();
					return;
				}
				expect(found).toBeDefined();
				if (found === "") return;
				const child = (value as Record<string, unknown>)[found as string];
				expect(1 + depthOf(child)).toBeGreaterThan(limit);
			}),
			{ numRuns: 2000 },
		);
	});

	it("answers for a value a million levels deep without overflowing the stack", () => {
		let deep: unknown = [];
		for (let i = 0; i < 1_000_000; i++) deep = [deep];
		expect(findExcessiveNesting({ content: deep })).toBe("content");
	});
});
