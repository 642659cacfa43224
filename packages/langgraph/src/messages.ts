import {
	appendViolation,
	type ContentBlock,
	findExcessiveNesting,
	MAX_NESTING_DEPTH,
	type RecordInput,
	type SessionRecord,
	type Usage,
} from "@agent/session-format/reading";
import { type BaseMessage, isBaseMessage } from "@langchain/core/messages";
import { OTHER_MESSAGE } from "./record-data.js";

/**
 * A LangChain message as our message record, so that the CLI, the page, search, export and
 * compaction see the conversation: human → user, ai → assistant (text, reasoning, tool calls,
 * usage), tool → toolResult. Anything else in the list (a system message, a plain object) is a
 * `custom` record that keeps its text: every item of the list is exactly one record, which is how
 * a later list that drops or replaces items finds where to branch. LangGraph never reads these
 * records back: the channel's value record keeps each message exactly as it was serialized.
 */
export function messageRecordOf(item: unknown, toolNames: ReadonlyMap<string, string>): RecordInput {
	if (!isBaseMessage(item)) return otherMessage("unknown", describe(item));
	const type = item.getType();
	const record =
		type === "human"
			? ({ recordType: "message", role: "user", content: blocksOf(item, false) } satisfies RecordInput)
			: type === "ai"
				? assistantRecord(item)
				: type === "tool"
					? toolResultRecord(item, toolNames)
					: undefined;
	if (!record || !fitsTheLog(record)) return otherMessage(type, textOf(item));
	return record;
}

/** The tool names of the tool calls in a message list, by call id (a tool message may not carry its tool's name). */
export function toolNamesOf(items: readonly unknown[]): Map<string, string> {
	const names = new Map<string, string>();
	for (const item of items) {
		if (!isBaseMessage(item) || item.getType() !== "ai") continue;
		for (const call of (item as { tool_calls?: { id?: string; name: string }[] }).tool_calls ?? []) {
			if (call.id) names.set(call.id, call.name);
		}
	}
	return names;
}

function assistantRecord(message: BaseMessage): RecordInput {
	const record: RecordInput & { recordType: "message" } = {
		recordType: "message",
		role: "assistant",
		content: blocksOf(message, true),
	};
	const usage = usageOf((message as { usage_metadata?: unknown }).usage_metadata);
	if (usage) record.usage = usage;
	const meta = message.response_metadata as Record<string, unknown> | undefined;
	const model = meta?.model_name ?? meta?.model;
	const provider = meta?.model_provider;
	if (typeof model === "string" && model && typeof provider === "string" && provider) {
		record.model = model;
		record.provider = provider;
	}
	return record;
}

function toolResultRecord(message: BaseMessage, toolNames: ReadonlyMap<string, string>): RecordInput | undefined {
	const { tool_call_id: toolCallId, status } = message as { tool_call_id?: string; status?: string };
	if (typeof toolCallId !== "string" || toolCallId === "") return undefined;
	return {
		recordType: "message",
		role: "toolResult",
		toolCallId,
		toolName: message.name || toolNames.get(toolCallId) || "tool",
		isError: status === "error",
		content: blocksOf(message, false).filter((block) => block.type === "text" || block.type === "image"),
	};
}

function blocksOf(message: BaseMessage, assistant: boolean): ContentBlock[] {
	const blocks: ContentBlock[] = [];
	let standard: readonly unknown[];
	try {
		standard = message.contentBlocks;
	} catch {
		standard = [{ type: "text", text: textOf(message) }];
	}
	const thinking = rawThinking(message);
	blocks.push(...thinking);
	for (const block of standard) {
		const b = block as Record<string, unknown>;
		if (b.type === "text" && typeof b.text === "string" && b.text !== "") blocks.push({ type: "text", text: b.text });
		else if (b.type === "reasoning" && typeof b.reasoning === "string" && thinking.length === 0) {
			blocks.push({ type: "thinking", thinking: b.reasoning });
		} else if (b.type === "image" && typeof b.data === "string" && typeof b.mimeType === "string") {
			blocks.push({ type: "image", data: b.data, mimeType: b.mimeType });
		} else if (b.type === "image" && typeof b.url === "string") {
			blocks.push({ type: "text", text: `[image: ${b.url}]` });
		}
	}
	// Tool calls from the message's own list: the standard view has them only for some providers.
	if (assistant) {
		const calls = (message as { tool_calls?: { id?: string; name?: unknown; args?: unknown }[] }).tool_calls ?? [];
		for (const call of calls) {
			if (typeof call.name !== "string" || call.name === "") continue;
			blocks.push({
				type: "toolCall",
				id: typeof call.id === "string" && call.id ? call.id : `call_${blocks.length}`,
				name: call.name,
				arguments: plainObject(call.args),
			});
		}
	}
	return blocks;
}

/** Anthropic-style thinking blocks (with their signature), which the standard view leaves out without a provider hint. */
function rawThinking(message: BaseMessage): ContentBlock[] {
	if (!Array.isArray(message.content)) return [];
	const out: ContentBlock[] = [];
	for (const block of message.content as unknown[]) {
		const b = block as Record<string, unknown>;
		if (b?.type !== "thinking" || typeof b.thinking !== "string") continue;
		out.push(
			typeof b.signature === "string"
				? { type: "thinking", thinking: b.thinking, thinkingSignature: b.signature }
				: { type: "thinking", thinking: b.thinking },
		);
	}
	return out;
}

function usageOf(value: unknown): Usage | undefined {
	const usage = value as { input_tokens?: unknown; output_tokens?: unknown; total_tokens?: unknown } | undefined;
	if (typeof usage?.input_tokens !== "number" || typeof usage.output_tokens !== "number") return undefined;
	const totalTokens =
		typeof usage.total_tokens === "number" ? usage.total_tokens : usage.input_tokens + usage.output_tokens;
	return { input: usage.input_tokens, output: usage.output_tokens, cacheRead: 0, cacheWrite: 0, totalTokens };
}

/** Tool-call arguments as a plain JSON object (what our records require). */
function plainObject(value: unknown): Record<string, unknown> {
	if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
	try {
		return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
	} catch {
		return {};
	}
}

function textOf(message: BaseMessage): string {
	try {
		return message.text;
	} catch {
		return typeof message.content === "string" ? message.content : "";
	}
}

function describe(item: unknown): string {
	if (typeof item === "string") return item;
	try {
		return JSON.stringify(item) ?? String(item);
	} catch {
		return String(item);
	}
}

function otherMessage(type: string, text: string): RecordInput {
	return { recordType: "custom", customType: OTHER_MESSAGE, data: { type, text } };
}

/** Whether the store takes the mapped record as it is (field limits, nesting); if not, it becomes an OTHER_MESSAGE. */
function fitsTheLog(record: RecordInput): boolean {
	if (findExcessiveNesting(record, MAX_NESTING_DEPTH - 2) !== undefined) return false;
	const filled = { ...record, seq: 1, schemaVersion: 1, timestamp: "1970-01-01T00:00:00Z" } as SessionRecord;
	return appendViolation(filled) === undefined;
}
