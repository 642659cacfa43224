import type { ContentBlock, ToolCallBlock } from "@agent/session-format/reading";

/**
 * A tool the model is told about (pi-ai's `Tool`). `parameters` is the JSON Schema of its
 * arguments: write it as a plain object, or build it with `Type` from `@mariozechner/pi-ai` (its
 * typebox), the peer dependency you installed with this package.
 */
export interface Tool {
	name: string;
	description: string;
	/** A JSON Schema object, e.g. `{ type: "object", properties: { path: { type: "string" } }, required: ["path"] }`. */
	parameters: object;
}

/** What a tool run returns: the content of the toolResult record. */
export interface ToolOutcome {
	content: string | ContentBlock[];
	isError?: boolean;
	/** Structured details for UIs; stored on the record, never sent to the LLM. */
	details?: unknown;
}

/**
 * Runs the assistant's tool calls. The runtime tells the model about `tools`, runs each call the
 * model makes through `execute` (a call that throws becomes an error result), appends each outcome
 * as a toolResult record, and asks the model again until it stops calling tools (bounded by
 * max_tool_steps). Give one to the runtime (every session, or per session with a function), or to
 * one send (`SendOptions.toolExecutor`).
 */
export interface ToolExecutor {
	/** The tools the model is told about. */
	tools: Tool[];
	execute(call: ToolCallBlock, context: { sessionId: string; signal?: AbortSignal }): Promise<ToolOutcome>;
}

/** The runtime's tools: one executor for every session, or a function that picks one per session. */
export type RuntimeTools = ToolExecutor | ((sessionId: string) => ToolExecutor | undefined);

/** The executor for a session's turn: the send's own, else the runtime's for that session. */
export function toolsForTurn(
	runtime: RuntimeTools | undefined,
	send: ToolExecutor | undefined,
	sessionId: string,
): ToolExecutor | undefined {
	if (send) return send;
	return typeof runtime === "function" ? runtime(sessionId) : runtime;
}
