import type { RecordInput } from "@agent/session-format";
import fc from "fast-check";
import { parse, postprocess, preprocess } from "micromark";
import { describe, expect, it } from "vitest";
import { collect } from "../testing/test-collect.js";
import { storedRecords } from "../testing/test-context.js";
import { exportRecords } from "./export-session.js";
import { escapeMarkdownHtml } from "./markdown-html.js";
import { recordsFrom } from "./record-source.js";

/** Every piece of raw HTML a CommonMark renderer would pass through, in document order. */
function rawHtml(markdown: string): string[] {
	const events = postprocess(
		parse()
			.document()
			.write(preprocess()(markdown, undefined, true)),
	);
	return events
		.filter(([kind, token]) => kind === "enter" && (token.type === "htmlFlow" || token.type === "htmlText"))
		.map(([, token]) => markdown.slice(token.start.offset, token.end.offset));
}

const INFO = { id: "01JMRZ8X1Q9V5E2H3K4M6N7P8R", createdAt: "2026-01-01T00:00:00.000Z" };

describe("escapeMarkdownHtml", () => {
	it("makes HTML blocks, inline tags and comments text", () => {
		const escaped = escapeMarkdownHtml(
			'<script>alert(1)</script>\n\nSee <img src=x onerror="alert(1)"> and <!-- hidden -->.\n\n<div>\nblock\n</div>\n',
		);
		expect(rawHtml(escaped)).toEqual([]);
		expect(escaped).toContain('&lt;img src=x onerror="alert(1)">');
		expect(escaped).toContain("&lt;script>alert(1)&lt;/script>");
	});

	it("leaves code spans, fenced and indented code, autolinks and comparisons exactly as they were", () => {
		const text =
			"Use `a <b> c` and <https://example.com>.\n\n```html\n<b>bold</b>\n```\n\n    <i>indented</i>\n\nif a < b && c > d\n";
		expect(escapeMarkdownHtml(text)).toBe(text);
	});

	it("parses again after escaping: an HTML block that hid a fence line no longer flips code into markup", () => {
		const text = "<div>\n```\n\n```\n<img src=x onerror=alert(1)>\n```\n";
		const escaped = escapeMarkdownHtml(text);
		expect(rawHtml(escaped)).toEqual([]);
	});

	it("closes a fenced code block left open, so it cannot swallow what follows", () => {
		const escaped = escapeMarkdownHtml("look:\n\n~~~~\nno end");
		expect(escaped).toBe("look:\n\n~~~~\nno end\n~~~~\n");
		const next = "\n### Assistant\n\n```\n<img src=x onerror=alert(1)>\n```\n";
		expect(rawHtml(escaped + escapeMarkdownHtml(next))).toEqual([]);
	});

	it("returns text without `<` or fences untouched, without parsing it", () => {
		expect(escapeMarkdownHtml("plain *text* & more")).toBe("plain *text* & more");
	});
});

/** Fragments that change how Markdown parses: tags, fences, indentation, containers, code spans. */
const FRAGMENTS = [
	"<img src=x onerror=alert(1)>",
	"<script>",
	"</script>",
	"<div>",
	"<!--",
	"-->",
	"<?",
	"<![CDATA[",
	"```",
	"~~~",
	"`",
	"    ",
	"\t",
	"\n",
	"\n\n",
	"- ",
	"1. ",
	"> ",
	"<a href='javascript:x'>",
	"text",
	" ",
	"<https://e.x>",
	"*",
	"[x]: /u",
];
const hostileText = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 30 }).map((parts) => parts.join(""));

describe("a Markdown export holds no HTML but its own <sub> lines", () => {
	it("property: whatever the texts of names, messages, thinking, summaries and labels", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.record({
					name: hostileText,
					texts: fc.array(hostileText, { minLength: 1, maxLength: 4 }),
					thinking: hostileText,
					summary: hostileText,
					label: hostileText,
					customType: hostileText.filter((value) => value.length > 0 && value.length < 200),
				}),
				async ({ name, texts, thinking, summary, label, customType }) => {
					const inputs: RecordInput[] = [
						{ recordType: "message", role: "user", content: texts.map((t) => ({ type: "text" as const, text: t })) },
						{
							recordType: "message",
							role: "assistant",
							content: [{ type: "thinking", thinking }, ...texts.map((t) => ({ type: "text" as const, text: t }))],
						},
						{ recordType: "label", targetSeq: 1, label: label.slice(0, 200) || "x" },
						{
							recordType: "custom_message",
							customType,
							display: true,
							content: [{ type: "text", text: texts[0] ?? "" }],
						},
						{
							recordType: "compaction",
							summary: summary || "s",
							firstKeptSeq: 1,
							tokensBefore: 1,
							readFiles: [],
							modifiedFiles: [],
						},
					];
					const markdown = await collect(
						exportRecords(recordsFrom(storedRecords(inputs)), { ...INFO, name: name || "n" }, "md"),
					);
					for (const html of rawHtml(markdown)) expect(["<sub>", "</sub>"]).toContain(html);
				},
			),
			{ numRuns: 300 },
		);
	});
});
