import { renderMarkdown } from "@agent/markdown";
import DOMPurify from "dompurify";

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
	return element;
}
