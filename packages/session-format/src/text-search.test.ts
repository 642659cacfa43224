import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { snippetOf, textMatcher } from "./text-search.js";

describe("search snippets", () => {
	it("are cut where words start and end, never in the middle of a word", () => {
		const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
		const text = `${words} NEEDLE ${words}`;
		const snippet = snippetOf(text, text.indexOf("NEEDLE"), "NEEDLE".length);
		expect(snippet.startsWith("…word")).toBe(true);
		expect(snippet.endsWith("…")).toBe(true);
		const inner = snippet.slice(1, -1);
		for (const word of inner.split(" ")) expect(word === "NEEDLE" || /^word\d+$/.test(word)).toBe(true);
		expect(inner).toContain("NEEDLE");
	});

	it("cuts a word only when it is longer than the context next to the match: some of it rather than none", () => {
		const text = `${"a".repeat(500)} needle ${"b".repeat(500)}`;
		const snippet = snippetOf(text, text.indexOf("needle"), 6);
		expect(snippet).toMatch(/^…a+ needle b+…$/);
	});

	it("shows the whole text when it is short, and the match's record through the matcher", () => {
		const hit = textMatcher("quokka").match(
			"01ARZ3NDEKTSV4RRFFQ69G5FAV",
			{
				recordType: "message",
				schemaVersion: 1,
				seq: 3,
				timestamp: "2026-01-01T00:00:00.000Z",
				role: "user",
				content: [{ type: "text", text: "the quokka\nconfig" }],
			},
			"named",
		);
		expect(hit?.snippet).toBe("the quokka config");
		expect(hit?.sessionName).toBe("named");
	});

	it("hold the match whole and never half a surrogate pair, whatever the text (property)", () => {
		fc.assert(
			fc.property(
				fc.string({ unit: "grapheme", maxLength: 300 }),
				fc.nat(),
				fc.integer({ min: 1, max: 8 }),
				(text, seed, size) => {
					if (text.length === 0) return;
					// A match starts and ends on whole code points, as indexOf of a whole query finds it.
					let at = seed % text.length;
					if (/[\udc00-\udfff]/.test(text[at] ?? "")) at--;
					let length = Math.min(size, text.length - at);
					if (/[\ud800-\udbff]/.test(text[at + length - 1] ?? "")) length++;
					const snippet = snippetOf(text, at, length);
					expect(snippet.replace(/^…|…$/g, "")).toContain(text.slice(at, at + length).trim());
					expect(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(snippet)).toBe(false);
				},
			),
		);
	});
});
