import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstMessagePreview } from "./metadata-derive.js";
import { codePointBoundary, headOf, loneSurrogateIndex, tailOf, toWellFormed, truncateText } from "./text-cut.js";
import { findLoneSurrogate, nameTextProblem, portableRecord, unportableText } from "./text-rules.js";
import { textMatcher } from "./text-search.js";

/** Well-formed text rich in surrogate pairs: emoji, CJK extension B, ASCII. */
const text = fc
	.array(fc.constantFrom("a", " ", "😀", "𠀀", "é", "日", "\n"), { maxLength: 300 })
	.map((pieces) => pieces.join(""));

const emojiAt = (n: number) => `${"a".repeat(n)}😀bbb`;

describe("text is cut on whole code points, never by UTF-16 unit", () => {
	it("no cut of well-formed text leaves a lone surrogate, and each stays within its length", () => {
		fc.assert(
			fc.property(text, fc.nat({ max: 320 }), (value, max) => {
				for (const cut of [headOf(value, max), tailOf(value, max), truncateText(value, Math.max(1, max))]) {
					expect(loneSurrogateIndex(cut)).toBe(-1);
				}
				expect(headOf(value, max).length).toBeLessThanOrEqual(max);
				expect(tailOf(value, max).length).toBeLessThanOrEqual(max);
				expect(truncateText(value, Math.max(1, max)).length).toBeLessThanOrEqual(Math.max(1, max));
				expect(value.startsWith(headOf(value, max))).toBe(true);
				expect(value.endsWith(tailOf(value, max))).toBe(true);
				// At most one unit short: a cut only ever moves off the middle of a pair.
				expect(headOf(value, max).length).toBeGreaterThanOrEqual(Math.min(value.length, max) - 1);
			}),
		);
	});

	it("a boundary inside a pair moves before it", () => {
		expect(codePointBoundary("a😀b", 2)).toBe(1);
		expect(codePointBoundary("a😀b", 3)).toBe(3);
		expect(headOf(emojiAt(59), 60)).toBe("a".repeat(59));
		expect(tailOf("😀b", 2)).toBe("b");
	});

	it("the first message's preview keeps an emoji across its cut (119) whole or drops it (issue 29, case 1)", () => {
		for (const n of [117, 118, 119, 120]) {
			const preview = firstMessagePreview(emojiAt(n));
			expect(loneSurrogateIndex(preview), String(n)).toBe(-1);
			expect(preview.length).toBeLessThanOrEqual(120);
		}
		expect(firstMessagePreview(emojiAt(118))).toBe(`${"a".repeat(118)}…`);
	});

	it("the preview shows U+0000 and a lone surrogate of an old log as U+FFFD, in every store", () => {
		expect(firstMessagePreview("a\u0000b \ud800c")).toBe("a\uFFFDb \uFFFDc");
		expect(toWellFormed("x\udc00😀")).toBe("x\uFFFD😀");
	});

	it("a search snippet cut around the match keeps the emoji at its edges whole", () => {
		const record = {
			recordType: "message" as const,
			schemaVersion: 1,
			seq: 1,
			timestamp: "2025-02-11T10:00:00Z",
			role: "user" as const,
			content: [{ type: "text" as const, text: `${"😀".repeat(40)}needle${"😀".repeat(40)}` }],
		};
		const hit = textMatcher("needle").match("S", record);
		expect(hit).toBeDefined();
		expect(loneSurrogateIndex(hit?.snippet ?? "")).toBe(-1);
	});
});

describe("the text rules every store enforces alike", () => {
	it("a name holds no U+0000 and no lone surrogate; free text may hold U+0000", () => {
		expect(nameTextProblem("a\u0000")).toMatch(/U\+0000/);
		expect(nameTextProblem("a\ud800")).toMatch(/lone surrogate/);
		expect(nameTextProblem("a😀")).toBeUndefined();
		expect(findLoneSurrogate({ content: [{ text: "ok" }, { text: "x\udc00" }] })?.path).toBe("content.1.text");
		expect(findLoneSurrogate({ "k\ud800": 1 })?.path).toBe("k\ud800");
		expect(findLoneSurrogate({ text: "a\u0000b" })).toBeUndefined();
	});

	it("portableRecord replaces what PostgreSQL cannot hold, and leaves a portable record as it is", () => {
		const old = {
			recordType: "session_info",
			seq: 2,
			name: "a\u0000b\ud800",
			content: [{ type: "text", text: "x\u0000y" }],
		};
		expect(unportableText(old)?.path).toBe("name");
		expect(portableRecord(old)).toEqual({
			recordType: "session_info",
			seq: 2,
			name: "a\uFFFDb\uFFFD",
			content: [{ type: "text", text: "x\u0000y" }],
		});
		const fine = { recordType: "message", seq: 1, content: [{ type: "text", text: "a\u0000😀" }] };
		expect(portableRecord(fine)).toBe(fine);
	});
});
