import type { ContentBlock, ToolCallBlock } from "@agent/session-format/reading";
import type { Tool } from "@mariozechner/pi-ai";

/** What a tool run returns: the content of the toolResult record. */
export interface ToolOutcome {
	content: string | ContentBlock[];
	isError?: boolean;
	/** Structured details for UIs; stored on the record, never sent to the LLM. */
	details?: unknown;
}

/**
 * Runs the assistant's tool calls. The runtime appends each outcome as a toolResult record and
 * asks the model again until it stops calling tools (bounded by max_tool_steps).
 */
export interface ToolExecutor {
	/** The tools the model is told about. */
	tools: Tool[];
	execute(call: ToolCallBlock, context: { sessionId: string; signal?: AbortSignal }): Promise<ToolOutcome>;
}
