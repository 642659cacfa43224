import type { ContentBlock, ContextMessage, RecordInput, Usage } from "@agent/session-format/reading";
import type {
	Api,
	AssistantMessage,
	ImageContent,
	Message,
	Model,
	TextContent,
	ThinkingContent,
	ToolCall,
} from "@mariozechner/pi-ai";

type UserBlock = TextContent | ImageContent;
type AssistantBlock = TextContent | ThinkingContent | ToolCall;

/** A message record as a caller appends it. */
export type MessageInput = Extract<RecordInput, { recordType: "message" }>;

const ZERO_COST = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };

/** Converts the context's messages into pi-ai messages for `stream`/`complete`. */
export function toPiMessages(messages: readonly ContextMessage[], model: Model<Api>): Message[] {
	return messages.map((message) => toPiMessage(message, model));
}

function toPiMessage(message: ContextMessage, model: Model<Api>): Message {
	const timestamp = message.timestamp ? Date.parse(message.timestamp) || Date.now() : Date.now();
	if (message.role === "user") {
		return { role: "user", content: userBlocks(message.content), timestamp };
	}
	if (message.role === "toolResult") {
		return {
			role: "toolResult",
			toolCallId: message.toolCallId ?? "",
			toolName: message.toolName ?? "",
			content: userBlocks(message.content),
			isError: message.isError ?? false,
			timestamp,
		};
	}
	const assistant: AssistantMessage = {
		role: "assistant",
		content: assistantBlocks(message.content),
		api: message.api ?? model.api,
		provider: message.provider ?? model.provider,
		model: message.model ?? model.id,
		usage: piUsage(message.usage),
		stopReason: message.stopReason ?? "stop",
		timestamp,
	};
	if (message.errorMessage !== undefined) assistant.errorMessage = message.errorMessage;
	return assistant;
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

/** The record body for an assistant reply, ready to append. */
export function assistantRecordInput(message: AssistantMessage): MessageInput {
	const content: ContentBlock[] = message.content.map((block) => {
		if (block.type === "toolCall") {
			const call: ContentBlock = { type: "toolCall", id: block.id, name: block.name, arguments: block.arguments ?? {} };
			if (block.thoughtSignature !== undefined) call.thoughtSignature = block.thoughtSignature;
			return call;
		}
		return block;
	});
	const record: MessageInput = {
		recordType: "message",
		role: "assistant",
		content,
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
		timestamp: new Date(message.timestamp || Date.now()).toISOString(),
		...(message.errorMessage !== undefined ? { errorMessage: message.errorMessage } : {}),
	};
	return record;
}
