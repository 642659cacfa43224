/**
 * @agent/session-format/pi: the glue between a store's context and pi-ai, both ways. Pure and
 * typed: pi-ai is imported for its types only (an optional peer dependency), so this entry loads
 * nothing but the package itself. `complete(model, { messages: toPiMessages(context) })`
 * typechecks under strict TypeScript, and a reply goes back with `messageRecordInput(reply)`.
 */
import type {
	AssistantMessage,
	ImageContent,
	Message,
	TextContent,
	ThinkingContent,
	ToolCall,
	ToolResultMessage,
	UserMessage,
} from "@mariozechner/pi-ai";
import type { ContentBlock } from "./content.js";
import type { ContextMessage, SessionContext } from "./context.js";
import type { RecordInput, Usage } from "./records.js";

/** A message record as a caller appends it. */
export type MessageInput = Extract<RecordInput, { recordType: "message" }>;

/**
 * What an assistant message needs when its record does not say (a message written by hand, or
 * imported): a pi-ai `Model` fits, and so does `{ provider, id }`. Default: the context's model.
 */
export interface PiModelDefaults {
	api?: string;
	provider?: string;
	/** The model id. */
	id?: string;
}

type UserBlock = TextContent | ImageContent;
type AssistantBlock = TextContent | ThinkingContent | ToolCall;

const ZERO_COST = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };

/** The context's messages (or a whole context) as pi-ai messages, for `stream`/`complete`/an `Agent`. */
export function toPiMessages(
	source: SessionContext | readonly ContextMessage[],
	defaults: PiModelDefaults = {},
): Message[] {
	const messages = isContext(source) ? source.messages : source;
	const fallback =
		isContext(source) && source.model ? { provider: source.model.provider, id: source.model.modelId } : {};
	const model = { ...fallback, ...defaults };
	return messages.map((message) => toPiMessage(message, model));
}

function isContext(source: SessionContext | readonly ContextMessage[]): source is SessionContext {
	return !Array.isArray(source);
}

/** One context message as a pi-ai message. */
export function toPiMessage(message: ContextMessage, defaults: PiModelDefaults = {}): Message {
	const timestamp = piTimestamp(message.timestamp);
	if (message.role === "user") {
		return { role: "user", content: userBlocks(message.content), timestamp } satisfies UserMessage;
	}
	if (message.role === "toolResult") {
		return {
			role: "toolResult",
			toolCallId: message.toolCallId ?? "",
			toolName: message.toolName ?? "",
			content: userBlocks(message.content),
			isError: message.isError ?? false,
			timestamp,
		} satisfies ToolResultMessage;
	}
	const assistant: AssistantMessage = {
		role: "assistant",
		content: assistantBlocks(message.content),
		api: message.api ?? defaults.api ?? "unknown",
		provider: message.provider ?? defaults.provider ?? "unknown",
		model: message.model ?? defaults.id ?? "unknown",
		usage: piUsage(message.usage),
		stopReason: message.stopReason ?? "stop",
		timestamp,
	};
	if (message.errorMessage !== undefined) assistant.errorMessage = message.errorMessage;
	return assistant;
}

function piTimestamp(timestamp: string | undefined): number {
	const parsed = timestamp === undefined ? Number.NaN : Date.parse(timestamp);
	return Number.isFinite(parsed) ? parsed : Date.now();
}

function userBlocks(content: readonly ContentBlock[]): UserBlock[] {
	const out: UserBlock[] = [];
	for (const block of content) {
		if (block.type === "text") out.push({ type: "text", text: block.text });
		else if (block.type === "image") out.push({ type: "image", data: block.data, mimeType: block.mimeType });
	}
	return out;
}

function assistantBlocks(content: readonly ContentBlock[]): AssistantBlock[] {
	const out: AssistantBlock[] = [];
	for (const block of content) if (block.type !== "image") out.push(block);
	return out;
}

function piUsage(usage: Usage | undefined): AssistantMessage["usage"] {
	if (!usage) return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { ...ZERO_COST } };
	return {
		input: usage.input,
		output: usage.output,
		cacheRead: usage.cacheRead,
		cacheWrite: usage.cacheWrite,
		totalTokens: usage.totalTokens,
		cost: { ...ZERO_COST, ...usage.cost },
	};
}

/**
 * The record body for a pi-ai message (a user prompt, an assistant reply, a tool result), ready
 * to append: the timestamp becomes ISO text, a string content one text block, and a tool
 * result's `details` is kept (never sent to the LLM).
 */
export function messageRecordInput(message: Message): MessageInput {
	if (message.role === "assistant") return assistantRecordInput(message);
	const timestamp = recordTimestamp(message.timestamp);
	if (message.role === "user") {
		const content: ContentBlock[] =
			typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content.map(copyBlock);
		return { recordType: "message", role: "user", content, timestamp };
	}
	const record: MessageInput = {
		recordType: "message",
		role: "toolResult",
		toolCallId: message.toolCallId,
		toolName: message.toolName,
		isError: message.isError,
		content: message.content.map(copyBlock),
		timestamp,
	};
	if (message.details !== undefined) record.details = message.details;
	return record;
}

/** The record body for an assistant reply, ready to append. */
export function assistantRecordInput(message: AssistantMessage): MessageInput {
	const record: MessageInput = {
		recordType: "message",
		role: "assistant",
		content: message.content.map(copyBlock),
		api: message.api,
		provider: message.provider,
		model: message.model,
		usage: {
			input: message.usage.input,
			output: message.usage.output,
			cacheRead: message.usage.cacheRead,
			cacheWrite: message.usage.cacheWrite,
			totalTokens: message.usage.totalTokens,
			cost: { ...message.usage.cost },
		},
		stopReason: message.stopReason,
		timestamp: recordTimestamp(message.timestamp),
	};
	if (message.errorMessage !== undefined) record.errorMessage = message.errorMessage;
	return record;
}

/** A pi-ai content block as a record's block: only the fields the format knows, none undefined. */
function copyBlock(block: TextContent | ThinkingContent | ToolCall | ImageContent): ContentBlock {
	switch (block.type) {
		case "text":
			return block.textSignature === undefined
				? { type: "text", text: block.text }
				: { type: "text", text: block.text, textSignature: block.textSignature };
		case "thinking": {
			const thinking: ContentBlock = { type: "thinking", thinking: block.thinking };
			if (block.thinkingSignature !== undefined) thinking.thinkingSignature = block.thinkingSignature;
			if (block.redacted !== undefined) thinking.redacted = block.redacted;
			return thinking;
		}
		case "toolCall": {
			const call: ContentBlock = { type: "toolCall", id: block.id, name: block.name, arguments: block.arguments ?? {} };
			if (block.thoughtSignature !== undefined) call.thoughtSignature = block.thoughtSignature;
			return call;
		}
		case "image":
			return { type: "image", data: block.data, mimeType: block.mimeType };
	}
}

function recordTimestamp(timestamp: number): string {
	return new Date(Number.isFinite(timestamp) && timestamp > 0 ? timestamp : Date.now()).toISOString();
}

export { explainMissingProvider } from "./pi-provider.js";
