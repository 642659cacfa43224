import type { ContentBlock, ImageBlock, StopReason, Usage } from "@agent/session-format";
import { text } from "../content.js";
import { isObject, numberField, stringField } from "../json-lines.js";

/** Content split into what maps to our blocks and what does not (kept beside the message). */
export interface SplitContent {
	blocks: ContentBlock[];
	unknown: unknown[];
	/** Blocks that could not be represented as they are (e.g. images given by URL). */
	approximated: number;
}

/** Assistant content: text, thinking, redacted_thinking, tool_use. */
export function claudeAssistantContent(content: unknown): SplitContent {
	const out: SplitContent = { blocks: [], unknown: [], approximated: 0 };
	if (typeof content === "string") {
		out.blocks.push(text(content));
		return out;
	}
	for (const block of Array.isArray(content) ? content : []) {
		if (!isObject(block)) continue;
		if (block.type === "text" && typeof block.text === "string") out.blocks.push(text(block.text));
		else if (block.type === "thinking" && typeof block.thinking === "string") {
			const thinking: ContentBlock = { type: "thinking", thinking: block.thinking };
			if (typeof block.signature === "string") thinking.thinkingSignature = block.signature;
			out.blocks.push(thinking);
		} else if (block.type === "redacted_thinking" && typeof block.data === "string") {
			out.blocks.push({ type: "thinking", thinking: "", thinkingSignature: block.data, redacted: true });
		} else if (block.type === "tool_use" && nonEmpty(block.id) && nonEmpty(block.name)) {
			const args = isObject(block.input) ? block.input : { input: block.input };
			out.blocks.push({ type: "toolCall", id: block.id, name: block.name, arguments: args });
		} else out.unknown.push(block);
	}
	return out;
}

/** A tool_result block as the fields of a toolResult record. */
export interface ClaudeToolResult {
	toolCallId: string;
	content: ContentBlock[];
	isError: boolean;
}

/** User content: text and image blocks, and the tool results it carries. */
export function claudeUserContent(content: unknown): SplitContent & { toolResults: ClaudeToolResult[] } {
	const out: SplitContent & { toolResults: ClaudeToolResult[] } = {
		blocks: [],
		unknown: [],
		approximated: 0,
		toolResults: [],
	};
	if (typeof content === "string") {
		out.blocks.push(text(content));
		return out;
	}
	for (const block of Array.isArray(content) ? content : []) {
		if (!isObject(block)) continue;
		if (block.type === "tool_result" && nonEmpty(block.tool_use_id)) {
			const inner = claudeUserContent(block.content ?? "");
			out.approximated += inner.approximated;
			out.unknown.push(...inner.unknown);
			out.toolResults.push({ toolCallId: block.tool_use_id, content: inner.blocks, isError: block.is_error === true });
			continue;
		}
		const simple = simpleBlock(block);
		if (simple) {
			out.blocks.push(simple.block);
			if (simple.approximated) out.approximated++;
		} else out.unknown.push(block);
	}
	return out;
}

/** Ids and names must be non-empty strings: a block without one is kept as unknown content, not sent on. */
function nonEmpty(value: unknown): value is string {
	return typeof value === "string" && value !== "";
}

function simpleBlock(block: Record<string, unknown>): { block: ContentBlock; approximated?: boolean } | undefined {
	if (block.type === "text" && typeof block.text === "string") return { block: text(block.text) };
	if (block.type !== "image" || !isObject(block.source)) return undefined;
	const source = block.source;
	if (source.type === "base64" && typeof source.data === "string" && typeof source.media_type === "string") {
		const image: ImageBlock = { type: "image", data: source.data, mimeType: source.media_type };
		return { block: image };
	}
	const url = stringField(source, "url");
	return url ? { block: text(`[image: ${url}]`), approximated: true } : undefined;
}

/** Anthropic usage as ours. */
export function claudeUsage(value: unknown): Usage | undefined {
	if (!isObject(value)) return undefined;
	const input = numberField(value, "input_tokens");
	const output = numberField(value, "output_tokens");
	if (input === undefined || output === undefined) return undefined;
	const cacheRead = numberField(value, "cache_read_input_tokens") ?? 0;
	const cacheWrite = numberField(value, "cache_creation_input_tokens") ?? 0;
	return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite };
}

/** Anthropic stop_reason as ours. */
export function claudeStopReason(value: unknown, hasToolCall: boolean): StopReason {
	switch (value) {
		case "tool_use":
			return "toolUse";
		case "max_tokens":
			return "length";
		case "refusal":
			return "error";
		case "end_turn":
		case "stop_sequence":
		case "pause_turn":
			return "stop";
		default:
			return hasToolCall ? "toolUse" : "stop";
	}
}
