import type { ContentBlock, TextBlock, ToolCallBlock } from "./content.js";

export function textBlock(text: string): TextBlock {
	return { type: "text", text };
}

/** The text of the text blocks of `content`, joined with newlines. */
export function contentText(content: readonly ContentBlock[]): string {
	let out = "";
	for (const block of content) {
		if (block.type !== "text") continue;
		out = out.length === 0 ? block.text : `${out}\n${block.text}`;
	}
	return out;
}

/** The tool calls in `content`, in order. */
export function toolCallsOf(content: readonly ContentBlock[]): ToolCallBlock[] {
	return content.filter((block): block is ToolCallBlock => block.type === "toolCall");
}
