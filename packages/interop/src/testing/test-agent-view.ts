import type { ContentBlock, SessionContext } from "@agent/session-format";
import { type AgentTarget, carriedContent } from "../export/agent-carry.js";

/** One message as the agent's model reads it, tool ids numbered by first appearance. */
export interface ViewMessage {
	role: string;
	content: ContentBlock[];
	toolCallId?: string;
	isError?: boolean;
}

/**
 * A context as an export to `target` carries it (see carriedContent): what the agent's model reads.
 * Tool call ids are numbered in order of appearance (an export rewrites ids the API would refuse,
 * keeping which result answers which call); Codex keeps no error flag on a tool result.
 */
export function agentView(context: SessionContext, target: AgentTarget): ViewMessage[] {
	const ids = new Map<string, string>();
	const idOf = (id: string) => {
		if (!ids.has(id)) ids.set(id, `tool-${ids.size + 1}`);
		return ids.get(id) as string;
	};
	return context.messages.map((message) => {
		const content = carriedContent(message, target).map((block) =>
			block.type === "toolCall" ? { ...block, id: idOf(block.id) } : block,
		);
		const out: ViewMessage = { role: message.role, content };
		if (message.role === "toolResult") {
			out.toolCallId = idOf(message.toolCallId ?? "");
			out.isError = target === "claude" ? message.isError === true : false;
		}
		return out;
	});
}
