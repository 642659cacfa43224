import { type ContentBlock, headOf, type RecordInput } from "@agent/session-format/reading";
import type { AgentInputItem } from "@openai/agents-core";

type MessageInput = Extract<RecordInput, { recordType: "message" }>;

/** How an item shows in our messages: part of a user message, of an assistant reply, a tool result, or not at all. */
export type ItemSide = "user" | "assistant" | "toolResult" | "none";

/** Tool calls that get their result in an item of their own, so they pair as a toolCall and a toolResult. */
const CALLS: Record<string, string> = {
	function_call: "",
	computer_call: "computer",
	shell_call: "shell",
	apply_patch_call: "apply_patch",
};
const RESULTS: Record<string, string> = {
	function_call_result: "",
	computer_call_result: "computer",
	shell_call_output: "shell",
	apply_patch_call_output: "apply_patch",
};

export function sideOf(item: AgentInputItem): ItemSide {
	const type = (item as { type?: string }).type ?? "message";
	if (type === "message") {
		const role = (item as { role?: string }).role;
		return role === "user" ? "user" : role === "assistant" ? "assistant" : "none";
	}
	if (type === "reasoning" || type in CALLS) return "assistant";
	if (type in RESULTS) return "toolResult";
	// System and developer messages, compaction items, hosted and searched tools, unknown items:
	// kept verbatim, shown nowhere (no message of ours means what they mean).
	return "none";
}

/**
 * The message a group of items maps to: a user item → a user message; a model response's items
 * (reasoning, tool calls, output text) → one assistant message with thinking, toolCall and text
 * blocks; a tool's result → a toolResult message. Undefined for a group of "none" items.
 */
export function messageOf(items: readonly AgentInputItem[]): MessageInput | undefined {
	const first = items[0];
	if (!first) return undefined;
	switch (sideOf(first)) {
		case "user":
			return { recordType: "message", role: "user", content: userContent(first) };
		case "assistant":
			return assistantMessage(items);
		case "toolResult":
			return toolResultMessage(first);
		default:
			return undefined;
	}
}

function userContent(item: AgentInputItem): ContentBlock[] {
	const content = (item as { content?: unknown }).content;
	if (typeof content === "string") return [{ type: "text", text: content }];
	return Array.isArray(content) ? content.flatMap(inputBlock) : [];
}

/** One part of a user message or of a tool's structured output. */
function inputBlock(part: unknown): ContentBlock[] {
	const block = part as { type?: string; text?: string; image?: unknown; file?: unknown; filename?: string };
	switch (block.type) {
		case "input_text":
		case "text":
			return [{ type: "text", text: block.text ?? "" }];
		case "input_image":
		case "image":
			return [imageBlock(block.image)];
		case "input_file":
		case "file":
			return [{ type: "text", text: `[file${fileName(block.file, block.filename)}]` }];
		case "audio":
			return [{ type: "text", text: "[audio]" }];
		default:
			return [];
	}
}

/** An inline image (a data URL) as an image block; anything else (a URL, a file id) as a note. */
function imageBlock(image: unknown): ContentBlock {
	const inline = typeof image === "string" ? /^data:([^;,]+);base64,(.*)$/s.exec(image) : null;
	if (inline) return { type: "image", mimeType: inline[1] as string, data: inline[2] as string };
	if (typeof image === "string") return { type: "text", text: `[image: ${headOf(image, 200)}]` };
	const reference = image as { url?: string; fileId?: string; id?: string } | undefined;
	const where = reference?.url ?? reference?.fileId ?? reference?.id;
	return { type: "text", text: where ? `[image: ${where}]` : "[image]" };
}

function fileName(file: unknown, filename: string | undefined): string {
	const reference = file as { filename?: string; url?: string; id?: string } | undefined;
	const name = filename ?? reference?.filename ?? reference?.url ?? reference?.id;
	return name ? `: ${name}` : "";
}

function assistantMessage(items: readonly AgentInputItem[]): MessageInput {
	const content: ContentBlock[] = [];
	for (const item of items) {
		const value = item as Record<string, unknown> & { type?: string };
		const type = value.type ?? "message";
		if (type === "reasoning") {
			// The user-facing summary, else the raw reasoning when that is all there is.
			const summary = asArray(value.content);
			const parts = (summary.length > 0 ? summary : asArray(value.rawContent)) as { text?: string }[];
			const text = parts.map((part) => part.text ?? "").join("\n");
			if (text) content.push({ type: "thinking", thinking: text });
		} else if (type === "message") {
			for (const part of asArray(value.content) as { type?: string; text?: string; refusal?: string }[]) {
				if (part.type === "output_text") content.push({ type: "text", text: part.text ?? "" });
				else if (part.type === "refusal") content.push({ type: "text", text: part.refusal ?? "" });
			}
		} else if (type in CALLS) {
			content.push({
				type: "toolCall",
				id: String(value.callId ?? value.id ?? ""),
				name: CALLS[type] || String(value.name ?? ""),
				arguments: callArguments(value),
			});
		}
	}
	const calls = content.some((block) => block.type === "toolCall");
	return { recordType: "message", role: "assistant", content, stopReason: calls ? "toolUse" : "stop" };
}

function callArguments(call: Record<string, unknown> & { type?: string }): Record<string, unknown> {
	if (call.type === "function_call") return parsedArguments(call.arguments);
	if (call.type === "computer_call")
		return call.actions !== undefined ? { actions: call.actions } : { action: call.action };
	if (call.type === "shell_call") return { action: call.action };
	return { operation: call.operation };
}

/** A function call's arguments (a JSON text) as an object: parsed, or kept as text when it is not a JSON object. */
function parsedArguments(text: unknown): Record<string, unknown> {
	if (typeof text !== "string") return {};
	try {
		const parsed: unknown = JSON.parse(text);
		if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed))
			return parsed as Record<string, unknown>;
	} catch {
		// Not JSON: kept as the text the model wrote.
	}
	return { input: text };
}

function toolResultMessage(item: AgentInputItem): MessageInput {
	const value = item as Record<string, unknown> & { type: string };
	const output = value.output;
	let content: ContentBlock[];
	if (typeof output === "string") content = [{ type: "text", text: output }];
	else if (value.type === "function_call_result" && Array.isArray(output)) content = output.flatMap(inputBlock);
	else if (value.type === "function_call_result" && output && typeof output === "object") content = inputBlock(output);
	else if (value.type === "computer_call_result") content = [imageBlock((output as { data?: unknown })?.data)];
	else content = [{ type: "text", text: JSON.stringify(output ?? null) }];
	const failed = value.status === "incomplete" || value.status === "failed";
	return {
		recordType: "message",
		role: "toolResult",
		toolCallId: String(value.callId ?? value.id ?? ""),
		toolName: RESULTS[value.type] || String(value.name ?? ""),
		isError: failed,
		content,
	};
}

function asArray(value: unknown): unknown[] {
	return Array.isArray(value) ? value : [];
}
