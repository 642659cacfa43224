import { parse, postprocess, preprocess } from "micromark";

/** Re-parses after escaping at most this often; past it every `<` is escaped (safe, if less pretty). */
const MAX_PASSES = 4;
const CONTAINERS = new Set(["blockQuote", "listOrdered", "listUnordered"]);

interface Scan {
	/** [start, end) offsets of raw HTML: HTML blocks and inline tags, comments, declarations. */
	html: Array<[number, number]>;
	/** The opening fence of a top-level fenced code block still open at the end, if any. */
	openFence?: string;
}

/**
 * One chunk of a Markdown transcript with its raw HTML made inert, so a viewer that renders HTML
 * (many do) shows a message's `<img onerror=…>` or `<script>` as text. A CommonMark parser
 * (micromark) finds what a renderer would take as HTML, and only there is `<` written `&lt;`:
 * code blocks, code spans and autolinks are left exactly as they were.
 *
 * Escaping can change how the rest of the chunk parses (an HTML block that swallowed a fence line
 * no longer does), so the chunk is parsed again until no HTML is left. A fenced code block still
 * open at the end is closed, so it cannot swallow the next chunk and turn code there into markup.
 * Each chunk starts with a heading, which ends every other open block.
 */
export function escapeMarkdownHtml(chunk: string): string {
	if (!chunk.includes("<") && !chunk.includes("```") && !chunk.includes("~~~")) return chunk;
	let text = chunk;
	let scan = scanMarkdown(text);
	for (let pass = 0; scan.html.length > 0; pass++) {
		text = pass < MAX_PASSES ? escapeRanges(text, scan.html) : text.replaceAll("<", "&lt;");
		scan = scanMarkdown(text);
	}
	if (scan.openFence !== undefined) text = `${text}${text.endsWith("\n") ? "" : "\n"}${scan.openFence}\n`;
	return text;
}

function escapeRanges(text: string, ranges: ReadonlyArray<[number, number]>): string {
	let out = "";
	let at = 0;
	for (const [start, end] of ranges) {
		out += text.slice(at, start) + text.slice(start, end).replaceAll("<", "&lt;");
		at = end;
	}
	return out + text.slice(at);
}

function scanMarkdown(text: string): Scan {
	const events = postprocess(
		parse()
			.document()
			.write(preprocess()(text, undefined, true)),
	);
	const html: Array<[number, number]> = [];
	let depth = 0;
	let fence: { sequence: string; fences: number; top: boolean } | undefined;
	let openFence: string | undefined;
	for (const [kind, token] of events) {
		if (CONTAINERS.has(token.type)) depth += kind === "enter" ? 1 : -1;
		if (kind !== "enter") {
			if (token.type === "codeFenced" && fence) {
				openFence = fence.top && fence.fences < 2 ? fence.sequence : undefined;
				fence = undefined;
			}
			continue;
		}
		if (token.type === "htmlFlow" || token.type === "htmlText") {
			html.push([token.start.offset, token.end.offset]);
		} else if (token.type === "codeFenced") {
			fence = { sequence: "", fences: 0, top: depth === 0 };
		} else if (token.type === "codeFencedFence" && fence) {
			fence.fences++;
		} else if (token.type === "codeFencedFenceSequence" && fence && fence.sequence === "") {
			fence.sequence = text.slice(token.start.offset, token.end.offset);
		}
	}
	return openFence === undefined ? { html } : { html, openFence };
}
