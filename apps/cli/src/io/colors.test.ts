import { describe, expect, it } from "vitest";
import { colorsEnabled, painter, stripAnsi } from "./colors.js";

describe("colorsEnabled", () => {
	it("colors a terminal and nothing else by default", () => {
		expect(colorsEnabled({ isTTY: true }, {})).toBe(true);
		expect(colorsEnabled({ isTTY: false }, {})).toBe(false);
		expect(colorsEnabled({}, {})).toBe(false);
	});

	it("never colors with NO_COLOR set, even on a terminal or with FORCE_COLOR", () => {
		expect(colorsEnabled({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
		expect(colorsEnabled({ isTTY: true }, { NO_COLOR: "1", FORCE_COLOR: "1" })).toBe(false);
	});

	it("ignores an empty NO_COLOR (no-color.org) and honours FORCE_COLOR off a terminal", () => {
		expect(colorsEnabled({ isTTY: true }, { NO_COLOR: "" })).toBe(true);
		expect(colorsEnabled({ isTTY: false }, { FORCE_COLOR: "1" })).toBe(true);
		expect(colorsEnabled({ isTTY: true }, { FORCE_COLOR: "0" })).toBe(false);
	});
});

describe("painter", () => {
	it("wraps text in ANSI codes only when enabled", () => {
		expect(painter(false)("red", "x")).toBe("x");
		const red = painter(true)("red", "x");
		expect(red).toBe("\u001b[31mx\u001b[39m");
		expect(stripAnsi(red)).toBe("x");
	});
});
