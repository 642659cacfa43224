import { describe, expect, it } from "vitest";
import { MARKDOWN_CSS } from "./theme.js";

function luminance(hex: string): number {
	const channels = (hex.replace("#", "").match(/../g) ?? []).map((part) => {
		const c = Number.parseInt(part, 16) / 255;
		return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
	});
	const [r = 0, g = 0, b = 0] = channels;
	return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
	const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
	return (high + 0.05) / (low + 0.05);
}

/** The colors of the code highlight's rules, and the code background, in the light or the dark part of the theme. */
function palette(css: string): { background: string; colors: string[] } {
	const background = /\.markdown pre\{[^}]*background:(#[0-9a-f]{6})/i.exec(css)?.[1] ?? "";
	const colors = [...css.matchAll(/\.hljs-[^{}]*\{([^}]*)\}/g)].flatMap((rule) => {
		const color = /(?:^|;)color:(#[0-9a-f]{6})/i.exec(rule[1] ?? "")?.[1];
		return color ? [color] : [];
	});
	return { background, colors };
}

describe("the code highlight's colors", () => {
	it("read at 4.5:1 or more on the code background (WCAG AA), light and dark", () => {
		const at = MARKDOWN_CSS.indexOf("@media (prefers-color-scheme: dark)");
		for (const part of [MARKDOWN_CSS.slice(0, at), MARKDOWN_CSS.slice(at)]) {
			const { background, colors } = palette(part);
			expect(background).toMatch(/^#/);
			expect(colors.length).toBeGreaterThan(5);
			for (const color of colors)
				expect(contrast(color, background), `${color} on ${background}`).toBeGreaterThanOrEqual(4.5);
		}
	});
});
