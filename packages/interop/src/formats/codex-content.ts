import { type ContentBlock, compactionSummaryText, type Usage } from "@agent/session-format";
import { imageFromDataUrl, text } from "../content.js";
import { isObject, numberField } from "../json-lines.js";

/** Whether a history message is the summary a compaction carries: its text ends with it, or is it as our context shows it. */
export function isSummaryText(block: ContentBlock, summary: string): boolean {
	if (block.type !== "text") return false;
	return block.text === compactionSummaryText(summary) || (summary !== "" && block.text.endsWith(summary));
}

/** A tool output: a string, an array of input_text/input_image items, or (older) {content, success}. */
export function outputContent(output: unknown): { content: ContentBlock[]; isError: boolean } {
	if (typeof output === "string") return { content: [text(output)], isError: false };
	if (Array.isArray(output)) {
		const content: ContentBlock[] = [];
		for (const part of output) {
			if (!isObject(part)) continue;
			if (typeof part.text === "string") content.push(text(part.text));
			else if (typeof part.image_url === "string")
				content.push(imageFromDataUrl(part.image_url) ?? text(`[image: ${part.image_url}]`));
		}
		return { content, isError: false };
	}
	if (isObject(output)) {
		const inner = outputContent(output.content);
		return { content: inner.content, isError: output.success === false };
	}
	return { content: [text(output === undefined ? "" : JSON.stringify(output))], isError: false };
}

/** Codex's token usage (input includes the cached part) as ours. */
export function codexUsage(value: unknown): Usage | undefined {
	if (!isObject(value)) return undefined;
	const inputTokens = numberField(value, "input_tokens");
	const outputTokens = numberField(value, "output_tokens");
	if (inputTokens === undefined || outputTokens === undefined) return undefined;
	const cached = numberField(value, "cached_input_tokens") ?? 0;
	return {
		input: Math.max(0, inputTokens - cached),
		output: outputTokens,
		cacheRead: cached,
		cacheWrite: 0,
		totalTokens: numberField(value, "total_tokens") ?? inputTokens + outputTokens,
	};
}
