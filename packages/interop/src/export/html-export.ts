import { MARKDOWN_CSS, renderMarkdown } from "@agent/markdown";
import type { ContentBlock } from "@agent/session-format";
import { activePath } from "./active-path.js";
import type { ExportInfo, RecordSource } from "./record-source.js";
import { base64Bytes, headerFacts, hiddenNote, type TranscriptItem, transcriptItem } from "./transcript-items.js";

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f;background:#fff}
h1{font-size:1.5rem}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;color:#555}dt{font-weight:600}
section{border:1px solid #ddd;border-radius:8px;padding:.6rem .9rem;margin:.8rem 0}
section.user{background:#f4f8ff}section.assistant{background:#fafafa}section.toolResult{background:#f7f7f2}
section.error{border-color:#d33}section.summary{background:#fff8e6}section.custom_message{background:#f3f0ff}
header{font-weight:600;margin-bottom:.3rem}header small{font-weight:400;color:#777;margin-left:.5rem}
p.note{color:#666;font-style:italic;margin:.4rem 0}pre{white-space:pre-wrap;word-break:break-word;background:#f0f0f0;padding:.5rem;border-radius:6px;margin:.4rem 0}
.text{white-space:pre-wrap;word-break:break-word}details{margin:.3rem 0}summary{cursor:pointer;color:#555}
label.image{display:block;margin:.4rem 0}label.image input{position:absolute;opacity:0;pointer-events:none}
label.image img{display:block;max-width:100%;max-height:24rem;border:1px solid #ddd;border-radius:6px;cursor:zoom-in}
label.image input:checked+img{max-height:none;cursor:zoom-out}label.image input:focus-visible+img{outline:2px solid #3b5bdb}`;

/** Content Security Policy: the page loads nothing from anywhere (images are inline data). */
const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";

const SAFE_IMAGE_TYPE = /^image\/(png|jpeg|gif|webp)$/;
/**
 * Base64 without whitespace (removed first). Linear: the character class and the padding cannot
 * overlap, so a failed match gives back each character once. The pattern it replaces allowed
 * whitespace in both parts and took 30 s on 150,000 spaces followed by "!".
 */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * A single self-contained HTML page of the active branch: inline style, inline images, no
 * script and no external asset (a CSP forbids them). Every text from the session is escaped.
 */
export async function* htmlChunks(source: RecordSource, info: ExportInfo): AsyncGenerator<string> {
	const { onPath, total } = await activePath(source, info.leafSeq);
	const { title, facts } = headerFacts(info);
	yield `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="${CSP}">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escapeHtml(title)}</title>\n<style>${STYLE}\n`;
	// The rendered Markdown's stylesheet (the web page's too), in a chunk of its own.
	yield `${MARKDOWN_CSS}</style>\n</head>\n<body>\n<h1>${escapeHtml(title)}</h1>\n<dl>${facts.map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${escapeHtml(value)}</dd>`).join("")}</dl>\n`;
	let custom = 0;
	for await (const record of source()) {
		if (!onPath.has(record.seq)) continue;
		const item = transcriptItem(record);
		if (item) yield `${htmlItem(item)}\n`;
		else custom++;
	}
	const note = hiddenNote(total - onPath.size, custom);
	if (note) yield `<p class="note">${escapeHtml(note)}</p>\n`;
	yield "</body>\n</html>\n";
}

function htmlItem(item: TranscriptItem): string {
	const small = `<small>#${item.seq} · ${escapeHtml(item.timestamp)}</small>`;
	switch (item.kind) {
		case "message": {
			const classes = `${item.role}${item.isError ? " error" : ""}`;
			return `<section class="${classes}"><header>${escapeHtml(item.label)}${small}</header>${blocksHtml(item.blocks, item.role === "toolResult")}</section>`;
		}
		case "custom_message":
			return `<section class="custom_message"><header>Custom message: ${escapeHtml(item.customType)}${small}</header>${blocksHtml(item.blocks, false)}</section>`;
		case "summary": {
			const files =
				item.files && item.files.length > 0
					? `<p class="note">Files: ${item.files.map(escapeHtml).join(", ")}</p>`
					: "";
			return `<section class="summary"><header>${escapeHtml(item.title)}${small}</header><div class="markdown">${renderMarkdown(item.summary)}</div>${files}</section>`;
		}
		case "note":
			return `<p class="note">${escapeHtml(item.text)} ${small}</p>`;
	}
}

function blocksHtml(blocks: readonly ContentBlock[], asOutput: boolean): string {
	let out = "";
	for (const block of blocks) {
		switch (block.type) {
			case "text":
				// Message text is Markdown, rendered the way the web page renders it (raw HTML escaped).
				out += asOutput
					? `<pre>${escapeHtml(block.text)}</pre>`
					: `<div class="markdown">${renderMarkdown(block.text)}</div>`;
				break;
			case "thinking":
				out += block.redacted
					? `<p class="note">(redacted thinking)</p>`
					: `<details><summary>Thinking</summary><div class="text">${escapeHtml(block.thinking)}</div></details>`;
				break;
			case "toolCall":
				out += `<details open><summary>Tool call: ${escapeHtml(block.name)} <small>${escapeHtml(block.id)}</small></summary><pre>${escapeHtml(JSON.stringify(block.arguments, null, 2))}</pre></details>`;
				break;
			case "image": {
				const data = block.data.replace(/\s+/g, "");
				out +=
					SAFE_IMAGE_TYPE.test(block.mimeType) && BASE64.test(data)
						? // Size-capped; a click (the label's checkbox, no script) shows it whole.
							`<label class="image"><input type="checkbox" aria-label="Show the image at full size"><img alt="image" src="data:${block.mimeType};base64,${data}"></label>`
						: `<p class="note">[image: ${escapeHtml(block.mimeType)}, ${base64Bytes(block.data)} bytes, not shown]</p>`;
				break;
			}
		}
	}
	return out;
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
