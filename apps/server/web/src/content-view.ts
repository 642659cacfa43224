import type { ContentBlock } from "@agent/session-format/reading";
import { type Child, h } from "./dom.js";
import { argumentsPreview, preview } from "./format.js";
import { markdownElement } from "./markdown-view.js";

/** Renders content blocks: text as Markdown, thinking and tool calls folded, images as a placeholder. */
export function renderBlocks(blocks: readonly ContentBlock[]): Child[] {
	return blocks.map((block) => {
		switch (block.type) {
			case "text":
				return markdownElement(block.text);
			case "thinking":
				return h(
					"details",
					{ class: "fold thinking" },
					h("summary", null, block.redacted ? "thinking (redacted)" : `thinking · ${preview(block.thinking, 60)}`),
					h("pre", null, block.thinking),
				);
			case "toolCall":
				return h(
					"details",
					{ class: "fold tool-call", "data-tool": block.name },
					h("summary", null, h("span", { class: "tool-name" }, block.name), " ", argumentsPreview(block.arguments)),
					h("pre", null, JSON.stringify(block.arguments, null, 2)),
				);
			case "image":
				return h("div", { class: "image-placeholder" }, `[image, ${block.mimeType}]`);
			default:
				return null;
		}
	});
}

/** A tool result, folded: its tool's name and first line; the whole output inside. */
export function renderToolResult(
	content: readonly ContentBlock[],
	options: { toolName?: string; isError?: boolean },
): HTMLElement {
	const text = content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
	return h(
		"details",
		{ class: `fold tool-result${options.isError ? " error" : ""}` },
		h(
			"summary",
			null,
			h("span", { class: "tool-name" }, options.isError ? "error from " : "result of ", options.toolName ?? "tool"),
			" ",
			preview(text, 70),
		),
		h("pre", null, text),
	);
}
