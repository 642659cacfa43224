import MarkdownIt from "markdown-it";
import { highlightCode } from "./highlight.js";

/** Text longer than this is shown as preformatted text: parsing megabytes of tool output as Markdown would stall a page. */
export const MAX_MARKDOWN_CHARS = 200_000;

/** Link targets allowed in rendered Markdown: the web, mail, and links within the page. */
const SAFE_LINK = /^(https?:|mailto:|#|\/(?!\/))/i;

const markdown: MarkdownIt = new MarkdownIt({
	// Raw HTML in a message is shown as text, never parsed: this is what makes the output safe.
	html: false,
	linkify: true,
	// A line break typed in a message is a line break on screen.
	breaks: true,
	highlight: (code: string, language: string): string => {
		const highlighted = highlightCode(code, language);
		if (highlighted === undefined) return "";
		const name: string = markdown.utils.escapeHtml(language.trim().toLowerCase());
		return `<pre class="code"><code class="hljs language-${name}">${highlighted}</code></pre>`;
	},
});

// Only http(s), mailto and in-page links; javascript:, data:, file: and the like stay text.
markdown.validateLink = (url) => SAFE_LINK.test(url.trim());

// Links open in a new tab and tell the target nothing about the page.
markdown.renderer.rules.link_open = (tokens, index, options, _env, self) => {
	const token = tokens[index];
	token?.attrSet("target", "_blank");
	token?.attrSet("rel", "noopener noreferrer nofollow");
	return self.renderToken(tokens, index, options);
};

// Images are never loaded (a transcript must not fetch from anywhere): they become links.
markdown.renderer.rules.image = (tokens, index) => {
	const token = tokens[index];
	const source = token?.attrGet("src") ?? "";
	const alt = markdown.utils.escapeHtml(token?.content || "image");
	if (!SAFE_LINK.test(source)) return `<span class="image-ref">[${alt}]</span>`;
	const href = markdown.utils.escapeHtml(source);
	return `<a class="image-ref" href="${href}" target="_blank" rel="noopener noreferrer nofollow">[image: ${alt}]</a>`;
};

// A link whose target was refused (or is empty) is shown as its text alone: markdown-it would
// otherwise keep it as an `<a href="">` that reloads the page.
markdown.core.ruler.push("drop_refused_links", (state) => {
	for (const block of state.tokens) {
		if (!block.children) continue;
		let dropping = false;
		block.children = block.children.filter((token) => {
			if (token.type === "link_open") {
				dropping = !SAFE_LINK.test((token.attrGet("href") ?? "").trim());
				return !dropping;
			}
			if (token.type === "link_close" && dropping) {
				dropping = false;
				return false;
			}
			return true;
		});
	}
});

// Table alignment becomes a class instead of a style attribute, which a strict CSP refuses.
markdown.core.ruler.push("alignment_classes", (state) => {
	for (const token of state.tokens) {
		if (token.type !== "th_open" && token.type !== "td_open") continue;
		const style = token.attrGet("style");
		if (!style) continue;
		const align = /text-align:\s*(left|center|right)/.exec(style)?.[1];
		token.attrs = (token.attrs ?? []).filter(([name]) => name !== "style");
		if (align) token.attrJoin("class", `align-${align}`);
	}
});

/**
 * Renders a message's Markdown text to HTML that is safe to insert: raw HTML is escaped, links
 * are limited to http(s), mailto and in-page targets, images are not loaded, code fences in a
 * known language are highlighted. Text over MAX_MARKDOWN_CHARS is returned as escaped `<pre>`.
 */
export function renderMarkdown(text: string): string {
	if (text.length > MAX_MARKDOWN_CHARS) return `<pre class="plain">${markdown.utils.escapeHtml(text)}</pre>\n`;
	return markdown.render(text);
}
