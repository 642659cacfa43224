/**
 * The sessions the checks export, as record bodies for `agent-sessions append`: a prompt, an answer
 * that calls a tool, the tool's result and the final answer; and a longer one with a compaction that
 * keeps its last exchange, then another tool round after it.
 */

const ANSWER = { provider: "anthropic", model: "claude-sonnet-4-5" };

function user(text: string): object {
	return { recordType: "message", role: "user", content: [{ type: "text", text }] };
}

function assistant(content: object[], stopReason: "stop" | "toolUse"): object {
	return { recordType: "message", role: "assistant", content, ...ANSWER, stopReason };
}

function toolResult(toolCallId: string, toolName: string, text: string): object {
	return {
		recordType: "message",
		role: "toolResult",
		toolCallId,
		toolName,
		content: [{ type: "text", text }],
		isError: false,
	};
}

export const TOOL_ROUND: object[] = [
	user("What does notes.txt say?"),
	assistant(
		[
			{ type: "text", text: "Let me read it." },
			{ type: "toolCall", id: "call_read_1", name: "Read", arguments: { file_path: "notes.txt" } },
		],
		"toolUse",
	),
	toolResult("call_read_1", "Read", "buy oat milk"),
	assistant([{ type: "text", text: "It says: buy oat milk." }], "stop"),
];

/** Seqs 1–4 are TOOL_ROUND, 5–6 the exchange the compaction (seq 7) keeps, 8–11 what follows it. */
export const COMPACTED: object[] = [
	...TOOL_ROUND,
	user("And the shop?"),
	assistant([{ type: "text", text: "The corner shop, open until eight." }], "stop"),
	{
		recordType: "compaction",
		firstKeptSeq: 5,
		summary: "## Goal\nFind out what notes.txt asks for.\n\n## Progress\nnotes.txt says: buy oat milk.",
		tokensBefore: 1200,
		readFiles: ["notes.txt"],
		modifiedFiles: [],
		trigger: "threshold",
	},
	user("Which files are here?"),
	assistant([{ type: "toolCall", id: "call_ls_2", name: "Bash", arguments: { command: "ls" } }], "toolUse"),
	toolResult("call_ls_2", "Bash", "notes.txt"),
	assistant([{ type: "text", text: "Only notes.txt." }], "stop"),
];
