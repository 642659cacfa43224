import { type ContentBlock, headOf, type ToolCallBlock } from "@agent/session-format/reading";

/** Tool results longer than this many characters are cut when serialized for the summarizer. */
export const DEFAULT_MAX_TOOL_RESULT_CHARS = 2000;

export interface SerializeOptions {
	/** Characters of a tool result to keep; the rest is replaced by a note of how much was cut. */
	maxToolResultChars?: number;
	/**
	 * Tokens one text or thinking block may have before its middle is cut with a marker (the log
	 * keeps the whole text); a plan prepared with a context window sets it (see oversizedBlockTokens).
	 */
	maxBlockTokens?: number;
}

/** What serialization needs of a message; ContextMessage and MessageRecord both fit. */
export interface SerializableMessage {
	readonly role: "user" | "assistant" | "toolResult";
	readonly content: readonly ContentBlock[];
	readonly isError?: boolean | undefined;
}

/**
 * Spec §7.5.5: the conversation as flat text (`[User]:`, `[Assistant]:`, `[Assistant tool calls]:`,
 * `[Tool result]:`), so the summarizer reads it as material, not as a conversation to continue.
 * One message per line group, joined by newlines; messages with nothing to show are left out.
 */
export function serializeConversation(messages: Iterable<SerializableMessage>, options: SerializeOptions = {}): string {
	const parts: string[] = [];
	for (const message of messages) {
		const text = serializeMessage(message, options);
		if (text.length > 0) parts.push(text);
	}
	return parts.join("\n");
}

/** One message in the §7.5.5 flat format; "" when it has nothing to show. */
export function serializeMessage(message: SerializableMessage, options: SerializeOptions = {}): string {
	switch (message.role) {
		case "user":
			return labelled("[User]", blocksText(message.content));
		case "toolResult": {
			const label = message.isError ? "[Tool result (error)]" : "[Tool result]";
			const max = options.maxToolResultChars ?? DEFAULT_MAX_TOOL_RESULT_CHARS;
			return labelled(label, truncate(blocksText(message.content), max), true);
		}
		case "assistant":
			return serializeAssistant(message.content);
	}
}

/** `name(key="value", other=1)`: arguments as JSON values, in their own order. */
function formatToolCall(call: Pick<ToolCallBlock, "name" | "arguments">): string {
	const args = Object.entries(call.arguments ?? {}).map(([key, value]) => `${key}=${JSON.stringify(value) ?? "null"}`);
	return `${call.name}(${args.join(", ")})`;
}

/** Keeps the first `max` characters and says how many were cut. */
export function truncate(text: string, max: number): string {
	if (max < 0 || text.length <= max) return text;
	const kept = headOf(text, max);
	return `${kept}\n[... ${text.length - kept.length} of ${text.length} characters truncated]`;
}

function serializeAssistant(content: readonly ContentBlock[]): string {
	const thinking: string[] = [];
	const text: string[] = [];
	const calls: string[] = [];
	for (const block of content) {
		if (block.type === "thinking" && !block.redacted && block.thinking.length > 0) thinking.push(block.thinking);
		else if (block.type === "text" && block.text.length > 0) text.push(block.text);
		else if (block.type === "toolCall") calls.push(formatToolCall(block));
		else if (block.type === "image") text.push(imageText(block.mimeType));
	}
	const lines: string[] = [];
	if (thinking.length > 0) lines.push(`[Assistant thinking]: ${thinking.join("\n")}`);
	if (text.length > 0) lines.push(`[Assistant]: ${text.join("\n")}`);
	if (calls.length > 0) lines.push(`[Assistant tool calls]: ${calls.join("; ")}`);
	return lines.join("\n");
}

function blocksText(content: readonly ContentBlock[]): string {
	const parts: string[] = [];
	for (const block of content) {
		if (block.type === "text") parts.push(block.text);
		else if (block.type === "image") parts.push(imageText(block.mimeType));
		else if (block.type === "thinking" && !block.redacted) parts.push(block.thinking);
		else if (block.type === "toolCall") parts.push(formatToolCall(block));
	}
	return parts.join("\n");
}

function imageText(mimeType: string): string {
	return `[image: ${mimeType}]`;
}

function labelled(label: string, text: string, keepEmpty = false): string {
	if (text.length === 0 && !keepEmpty) return "";
	return `${label}: ${text}`;
}
