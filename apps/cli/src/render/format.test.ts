import { describe, expect, it } from "vitest";
import { formatCount } from "./format.js";

describe("formatCount", () => {
	it("writes what toLocaleString('en-US') writes", () => {
		const values = [0, 7, -7, 999, 1000, -1000, 12_345, 999_999, 1_000_000, -1_234_567, 2 ** 53 - 1, 1234.5678, -0.5];
		for (let digits = 1; digits <= 16; digits++) values.push(Number("9".repeat(digits)), 10 ** (digits - 1));
		for (const value of values) expect(formatCount(value)).toBe(value.toLocaleString("en-US"));
	});
});
