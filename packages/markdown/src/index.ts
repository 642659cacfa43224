export { highlightCode, highlightedLanguages, MAX_HIGHLIGHT_CHARS } from "./highlight.js";
export { MAX_MARKDOWN_CHARS, renderMarkdown } from "./render.js";
export { MARKDOWN_CSS } from "./theme.js";
