import type { MessagesRequest } from "./anthropic-api.js";
import type { ResponsesRequest } from "./openai-api.js";

/**
 * One step of a conversation, the same whichever API carried it, so what a tool sent can be
 * compared with our context: a user's text, an answer's text, a tool call, a tool result.
 */
export type Step =
	| { user: string }
	| { assistant: string }
	| { call: { id: string; name: string; input: unknown } }
	| { result: { id: string; text: string } };

interface OurMessage {
	role: "user" | "assistant" | "toolResult";
	content: Array<{ type: string; text?: string; id?: string; name?: string; arguments?: unknown }>;
	toolCallId?: string;
	origin: string;
}

/**
 * Our context (`agent-sessions context ID --json`) as steps: its messages and compaction summary.
 * Custom messages, and user messages that are context a tool adds by itself, are left out: the
 * sessions under check have none, and an import of a file the tool continued holds that context
 * (Claude Code's attachments as custom messages, Codex's `<environment_context>` as a user
 * message), which the steps of a request leave out as well.
 */
export function ourSteps(context: { messages: OurMessage[] }): Step[] {
	return context.messages.flatMap((message): Step[] => {
		if (message.origin !== "message" && message.origin !== "compaction_summary") return [];
		const text = message.content.flatMap((block) => (block.type === "text" ? [block.text ?? ""] : [])).join("");
		if (message.role === "toolResult") return [{ result: { id: message.toolCallId ?? "", text } }];
		if (message.role === "user") return addedByTheTool(text) ? [] : [{ user: text.trim() }];
		return message.content.flatMap((block): Step[] => {
			if (block.type === "text") return [{ assistant: (block.text ?? "").trim() }];
			if (block.type === "toolCall")
				return [{ call: { id: block.id ?? "", name: block.name ?? "", input: block.arguments } }];
			return [];
		});
	});
}

/**
 * Context a tool adds by itself (its environment, date, skills, instructions): a text that is one
 * element from start to end, such as `<system-reminder>…</system-reminder>` or
 * `<environment_context>…</environment_context>`. None of our test conversation looks like that.
 */
function addedByTheTool(text: string): boolean {
	return /^\s*<([a-z][\w-]*)>[\s\S]*<\/\1>\s*$/.test(text);
}

/** What Claude Code sent in a Messages request, as steps (without the context it adds itself). */
export function anthropicSteps(request: MessagesRequest): Step[] {
	return request.messages.flatMap((message) => {
		const blocks = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
		return blocks.flatMap((block): Step[] => {
			const text = typeof block.text === "string" ? block.text : "";
			if (block.type === "text") {
				if (addedByTheTool(text)) return [];
				return [message.role === "user" ? { user: text.trim() } : { assistant: text.trim() }];
			}
			if (block.type === "tool_use")
				return [{ call: { id: String(block.id), name: String(block.name), input: block.input } }];
			if (block.type === "tool_result")
				return [{ result: { id: String(block.tool_use_id), text: resultText(block.content) } }];
			return [];
		});
	});
}

/** What Codex sent in a Responses request, as steps (without its instructions and the context it adds itself). */
export function responsesSteps(request: ResponsesRequest): Step[] {
	return request.input.flatMap((item): Step[] => {
		if (item.type === "function_call") {
			return [
				{ call: { id: String(item.call_id), name: String(item.name), input: JSON.parse(String(item.arguments)) } },
			];
		}
		if (item.type === "function_call_output")
			return [{ result: { id: String(item.call_id), text: resultText(item.output) } }];
		if (item.type !== "message" || (item.role !== "user" && item.role !== "assistant")) return [];
		const parts = Array.isArray(item.content) ? (item.content as Array<{ type: string; text?: string }>) : [];
		return parts.flatMap((part): Step[] => {
			const text = part.text ?? "";
			if (part.type === "input_text" && !addedByTheTool(text)) return [{ user: text.trim() }];
			if (part.type === "output_text") return [{ assistant: text.trim() }];
			return [];
		});
	});
}

/** A tool result's text: a string, or the text of its parts. */
function resultText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content.map((part: { text?: unknown }) => (typeof part.text === "string" ? part.text : "")).join("");
}
