import type { ContentBlock, ContextMessage } from "@agent/session-format/reading";
import type { AgentInputItem, FunctionCallResultItem } from "@openai/agents-core";

type ToolOutput = FunctionCallResultItem["output"];
type StructuredOutput = Extract<ToolOutput, unknown[]>[number];

/**
 * The SDK items a message of ours stands for, when no items were kept with it: a message written
 * by someone else (the runtime, an import, a hand), a compaction's summary, a custom message.
 * So the SDK can go on with any session, not only the ones it wrote.
 */
export function itemsOfMessage(message: ContextMessage): AgentInputItem[] {
	if (message.role === "user") return [userItem(message.content)];
	if (message.role === "toolResult") {
		return [
			{
				type: "function_call_result",
				callId: message.toolCallId ?? "",
				name: message.toolName ?? "",
				status: message.isError ? "incomplete" : "completed",
				output: toolOutput(message.content),
			},
		];
	}
	const items: AgentInputItem[] = [];
	let text: { type: "output_text"; text: string }[] = [];
	const flushText = () => {
		if (text.length === 0) return;
		items.push({ type: "message", role: "assistant", status: "completed", content: text });
		text = [];
	};
	for (const block of message.content) {
		if (block.type === "thinking") {
			flushText();
			items.push({ type: "reasoning", content: [{ type: "input_text", text: block.thinking }] });
		} else if (block.type === "text") {
			text.push({ type: "output_text", text: block.text });
		} else if (block.type === "toolCall") {
			flushText();
			items.push({
				type: "function_call",
				callId: block.id,
				name: block.name,
				arguments: JSON.stringify(block.arguments),
				status: "completed",
			});
		}
	}
	flushText();
	return items;
}

function userItem(content: readonly ContentBlock[]): AgentInputItem {
	if (content.every((block) => block.type === "text")) {
		return {
			type: "message",
			role: "user",
			content: content.map((block) => (block as { text: string }).text).join("\n"),
		};
	}
	const parts: ({ type: "input_text"; text: string } | { type: "input_image"; image: string })[] = [];
	for (const block of content) {
		if (block.type === "text") parts.push({ type: "input_text", text: block.text });
		else if (block.type === "image")
			parts.push({ type: "input_image", image: `data:${block.mimeType};base64,${block.data}` });
	}
	return { type: "message", role: "user", content: parts };
}

function toolOutput(content: readonly ContentBlock[]): ToolOutput {
	if (content.every((block) => block.type === "text")) {
		return content.map((block) => (block as { text: string }).text).join("\n");
	}
	const parts: StructuredOutput[] = [];
	for (const block of content) {
		if (block.type === "text") parts.push({ type: "input_text", text: block.text });
		else if (block.type === "image")
			parts.push({ type: "input_image", image: `data:${block.mimeType};base64,${block.data}` });
	}
	return parts;
}
