/**
 * Test helpers: real pi session files, written by pi's own SessionManager (v3), and v1/v2
 * files written by hand from their documented structure.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";

type PiMessage = Parameters<SessionManager["appendMessage"]>[0];

const ZERO_USAGE = {
	input: 10,
	output: 5,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 15,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

export function user(text: string): PiMessage {
	return { role: "user", content: text, timestamp: Date.now() };
}

export function assistant(
	content: Extract<PiMessage, { role: "assistant" }>["content"],
	model = "claude-sonnet-4-5",
	provider = "anthropic",
): PiMessage {
	const hasTool = content.some((block) => block.type === "toolCall");
	return {
		role: "assistant",
		content,
		api: "anthropic-messages",
		provider,
		model,
		usage: ZERO_USAGE,
		stopReason: hasTool ? "toolUse" : "stop",
		timestamp: Date.now(),
	};
}

export function toolResult(toolCallId: string, output: string, isError = false): PiMessage {
	return {
		role: "toolResult",
		toolCallId,
		toolName: "bash",
		content: [{ type: "text", text: output }],
		details: { exit: isError ? 1 : 0 },
		isError,
		timestamp: Date.now(),
	};
}

/** A pi session manager writing under `dir`. */
export function piSession(dir: string, cwd = "/work/project"): SessionManager {
	return SessionManager.create(cwd, dir);
}

/** A linear session with every entry type pi writes. */
export function writeLinearPiSession(dir: string): string {
	const sm = piSession(dir);
	sm.appendModelChange("anthropic", "claude-sonnet-4-5");
	sm.appendThinkingLevelChange("high");
	const first = sm.appendMessage(user("List the files, please."));
	sm.appendMessage(
		assistant([
			{ type: "thinking", thinking: "I should run ls.", thinkingSignature: "sig-1" },
			{ type: "text", text: "Running ls." },
			{ type: "toolCall", id: "call_1", name: "bash", arguments: { command: "ls" } },
		]),
	);
	sm.appendMessage(toolResult("call_1", "a.txt\nb.txt"));
	sm.appendMessage(assistant([{ type: "text", text: "There are two files: a.txt and b.txt." }]));
	sm.appendLabelChange(first, "start");
	sm.appendSessionInfo("File listing");
	sm.appendCustomEntry("my-extension", { counter: 3 });
	sm.appendCustomMessageEntry("reminder", "Remember to be brief.", false, { source: "ext" });
	sm.appendMessage({
		role: "bashExecution",
		command: "git status",
		output: "nothing to commit",
		exitCode: 0,
		cancelled: false,
		truncated: false,
		timestamp: Date.now(),
	});
	sm.appendMessage({
		role: "bashExecution",
		command: "make",
		output: "",
		exitCode: 2,
		cancelled: false,
		truncated: true,
		fullOutputPath: "/tmp/out.log",
		timestamp: Date.now(),
	});
	sm.appendMessage({
		role: "bashExecution",
		command: "secret",
		output: "not for the model",
		exitCode: 0,
		cancelled: false,
		truncated: false,
		excludeFromContext: true,
		timestamp: Date.now(),
	});
	sm.appendMessage({
		role: "custom",
		customType: "note",
		content: [{ type: "text", text: "An extension message." }],
		display: true,
		details: { n: 1 },
		timestamp: Date.now(),
	});
	sm.appendMessage({
		role: "user",
		content: [
			{ type: "text", text: "What is in this picture?" },
			{ type: "image", data: "aGVsbG8=", mimeType: "image/png" },
		],
		timestamp: Date.now(),
	});
	sm.appendModelChange("openai", "gpt-5");
	sm.appendMessage(assistant([{ type: "text", text: "A greeting." }], "gpt-5", "openai"));
	return sm.getSessionFile() as string;
}

/** A session with two branches (the second one current) and a branch summary. */
export function writeBranchedPiSession(dir: string): string {
	const sm = piSession(dir);
	const question = sm.appendMessage(user("Pick a language."));
	const answer = sm.appendMessage(assistant([{ type: "text", text: "Rust." }]));
	sm.appendMessage(user("Why Rust?"));
	sm.appendMessage(assistant([{ type: "text", text: "Memory safety." }]));
	sm.branch(answer);
	sm.branchWithSummary(answer, "The user asked why Rust; the answer was memory safety.", {
		readFiles: ["notes.md"],
		modifiedFiles: [],
	});
	sm.appendMessage(user("Actually, what about Go?"));
	sm.appendMessage(assistant([{ type: "text", text: "Go is simpler." }]));
	sm.branch(question);
	sm.appendMessage(assistant([{ type: "text", text: "TypeScript." }]));
	sm.appendMessage(user("Good choice."));
	return sm.getSessionFile() as string;
}

/** A session compacted twice, with tool calls kept across the cut. */
export function writeCompactedPiSession(dir: string): string {
	const sm = piSession(dir);
	sm.appendMessage(user("Step one."));
	sm.appendMessage(assistant([{ type: "text", text: "Done one." }]));
	const kept = sm.appendMessage(user("Step two: read the file."));
	sm.appendMessage(assistant([{ type: "toolCall", id: "call_r", name: "read", arguments: { path: "a.txt" } }]));
	sm.appendMessage(toolResult("call_r", "contents"));
	sm.appendMessage(assistant([{ type: "text", text: "Read it." }]));
	sm.appendCompaction("## Goal\nSteps one and two.", kept, 1234, {
		readFiles: ["a.txt"],
		modifiedFiles: ["b.txt"],
	});
	sm.appendMessage(user("Step three."));
	const kept2 = sm.appendMessage(assistant([{ type: "text", text: "Done three." }]));
	sm.appendMessage(user("Step four."));
	sm.appendMessage(assistant([{ type: "text", text: "Done four." }]));
	sm.appendCompaction("## Goal\nSteps one to four.", kept2, 2345, { readFiles: [], modifiedFiles: [] });
	sm.appendMessage(user("Step five."));
	sm.appendMessage(assistant([{ type: "text", text: "Done five." }]));
	return sm.getSessionFile() as string;
}

/** Writes JSONL lines to `dir/name` and returns the path. */
export function writeLines(dir: string, name: string, lines: readonly unknown[]): string {
	const path = join(dir, name);
	writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
	return path;
}

const T = "2025-06-01T10:00:00.000Z";

function v1Assistant(text: string) {
	return {
		role: "assistant",
		content: [{ type: "text", text }],
		api: "anthropic-messages",
		provider: "anthropic",
		model: "claude-3-5-sonnet",
		usage: ZERO_USAGE,
		stopReason: "stop",
		timestamp: 1748772000000,
	};
}

/** A v1 file: no version, no ids, a compaction with firstKeptEntryIndex (an index of the file's lines). */
export function v1Lines(): unknown[] {
	return [
		{
			type: "session",
			id: "0d9f3a52-1111-4a4a-8a8a-000000000001",
			timestamp: T,
			cwd: "/work/old",
			provider: "anthropic",
			modelId: "claude-3-5-sonnet",
			thinkingLevel: "medium",
		},
		{ type: "message", timestamp: T, message: { role: "user", content: "Hello", timestamp: 1748772000000 } },
		{ type: "message", timestamp: T, message: v1Assistant("Hi.") },
		{ type: "thinking_level_change", timestamp: T, thinkingLevel: "low" },
		{ type: "message", timestamp: T, message: { role: "user", content: "Summarize me.", timestamp: 1748772000000 } },
		{ type: "message", timestamp: T, message: v1Assistant("Summarized.") },
		// firstKeptEntryIndex 4: the "Summarize me." line (the header is index 0).
		{
			type: "compaction",
			timestamp: T,
			summary: "Greetings were exchanged.",
			firstKeptEntryIndex: 4,
			tokensBefore: 50,
		},
		{ type: "message", timestamp: T, message: { role: "user", content: "And now?", timestamp: 1748772000000 } },
		{ type: "message", timestamp: T, message: v1Assistant("Now this.") },
	];
}

/** A v2 file: ids and parentIds, a branch, and a hookMessage (renamed custom in v3). */
export function v2Lines(): unknown[] {
	const e = (id: string, parentId: string | null, rest: Record<string, unknown>) => ({
		id,
		parentId,
		timestamp: T,
		...rest,
	});
	return [
		{ type: "session", version: 2, id: "0d9f3a52-2222-4a4a-8a8a-000000000002", timestamp: T, cwd: "/work/v2" },
		e("a0000001", null, { type: "message", message: { role: "user", content: "One", timestamp: 1 } }),
		e("a0000002", "a0000001", { type: "message", message: v1Assistant("Two") }),
		e("a0000003", "a0000002", { type: "message", message: { role: "user", content: "Abandoned", timestamp: 1 } }),
		e("a0000004", "a0000002", {
			type: "message",
			message: {
				role: "hookMessage",
				customType: "hook",
				content: "From a hook.",
				display: true,
				timestamp: 1,
			},
		}),
		e("a0000005", "a0000004", {
			type: "compaction",
			summary: "One, two.",
			firstKeptEntryId: "a0000004",
			tokensBefore: 9,
		}),
		e("a0000006", "a0000005", { type: "message", message: { role: "user", content: "Three", timestamp: 1 } }),
		e("a0000007", "a0000006", { type: "label", targetId: "a0000006", label: "three" }),
	];
}
