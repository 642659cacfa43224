import { renderMarkdown } from "@agent/markdown";
import DOMPurify from "dompurify";
import { h } from "./dom.js";

/** What rendered Markdown may hold; anything else is dropped (it never should be there). */
const ALLOWED_TAGS = [
	"p",
	"br",
	"hr",
	"h1",
	"h2",
	"h3",
	"h4",
	"h5",
	"h6",
	"strong",
	"em",
	"s",
	"del",
	"code",
	"pre",
	"blockquote",
	"ul",
	"ol",
	"li",
	"a",
	"span",
	"table",
	"thead",
	"tbody",
	"tr",
	"th",
	"td",
];
const ALLOWED_ATTR = ["href", "target", "rel", "class", "start"];

const cache = new Map<string, string>();
const CACHE_LIMIT = 400;

/**
 * Message text rendered as Markdown (the renderer shared with the HTML export, which escapes raw
 * HTML), then passed through DOMPurify as a second guard: this page holds the server's token.
 * Results are cached by text, so rows scrolled back into view are not parsed again.
 */
export function markdownElement(text: string, extraClass = ""): HTMLElement {
	let html = cache.get(text);
	if (html === undefined) {
		html = DOMPurify.sanitize(renderMarkdown(text), { ALLOWED_TAGS, ALLOWED_ATTR, ALLOW_DATA_ATTR: false });
		if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
		cache.set(text, html);
	}
	const element = document.createElement("div");
	element.className = extraClass ? `markdown ${extraClass}` : "markdown";
	element.innerHTML = html;
	if (html.includes("<pre")) decorateCode(element);
	return element;
}

/**
 * Each code block gets a head with its language and a Copy button (the transcript handles the
 * button's click for every row: `data-copy-code`).
 */
function decorateCode(element: HTMLElement): void {
	for (const pre of element.querySelectorAll("pre")) {
		const code = pre.querySelector("code");
		if (!code) continue;
		const language = /(?:^|\s)language-([\w+#.-]+)/.exec(code.className)?.[1];
		const block = h("div", { class: "code-block" });
		pre.replaceWith(block);
		block.append(
			h(
				"div",
				{ class: "code-head" },
				h("span", { class: "code-lang" }, language ?? "text"),
				h("button", { type: "button", class: "code-copy", "data-copy-code": "", title: "Copy the code" }, "Copy"),
			),
			pre,
		);
	}
}
