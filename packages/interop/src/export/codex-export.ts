import type { ContentBlock, ContextMessage } from "@agent/session-format";
import { type AgentTarget, carriedContent, ToolIds } from "./agent-carry.js";
import type { AgentExportOptions } from "./claude-export.js";
import { resumableContext } from "./export-context.js";
import { piSessionIdOf } from "./pi-export.js";
import type { ExportInfo, RecordSource } from "./record-source.js";

/** The Codex version whose rollout format the export follows. */
export const CODEX_VERSION = "0.141.0";

const TARGET: AgentTarget = "codex";

/** Codex options: the model provider to record (`codex resume` lists the sessions of the provider it runs with). */
export interface CodexExportOptions extends AgentExportOptions {
	modelProvider?: string;
}

/**
 * A session as a Codex rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-<YYYY-MM-DDThh-mm-ss>-<id>.jsonl`)
 * that `codex resume <id>` opens: a `session_meta` line, then the context of the active branch as
 * response items with the events Codex writes beside them (a `user_message` event for each prompt,
 * which the resume picker lists sessions by; an `agent_message` event for each answer; a
 * `token_count` event ending each model response). A compaction is a `compacted` line whose
 * replacement history is the summary, followed by the messages it kept; custom messages and branch
 * summaries are developer messages. See docs/interop-formats.md for every field.
 */
export async function* codexExportLines(
	source: RecordSource,
	info: ExportInfo,
	options: CodexExportOptions = {},
): AsyncGenerator<string> {
	const context = await resumableContext(source, info, "Codex");
	const id = options.sessionId ?? piSessionIdOf(info.id);
	const cwd = options.cwd ?? info.cwd ?? process.cwd();
	const ids = new ToolIds();
	const line = (type: string, payload: unknown, timestamp: string | undefined) =>
		`${JSON.stringify({ timestamp: timestamp ?? info.createdAt, type, payload })}\n`;
	yield line(
		"session_meta",
		{
			id,
			timestamp: info.createdAt,
			cwd,
			originator: "agent-sessions",
			cli_version: CODEX_VERSION,
			source: "cli",
			model_provider: options.modelProvider ?? "openai",
		},
		info.createdAt,
	);
	for (const message of context.messages) {
		if (message.origin === "compaction_summary") {
			// The summary replaces the history before it; the messages it kept follow as lines of their own
			// (in a replacement history, two answers in a row would read as one response).
			yield line(
				"compacted",
				{ message: context.compaction?.summary ?? "", replacement_history: [userItem(message, "user")] },
				message.timestamp,
			);
			yield line("event_msg", { type: "context_compacted" }, message.timestamp);
			continue;
		}
		for (const item of items(message, ids)) yield line("response_item", item, message.timestamp);
		for (const event of events(message)) yield line("event_msg", event, message.timestamp);
	}
}

/** The response items of one context message. */
function items(message: ContextMessage, ids: ToolIds): Record<string, unknown>[] {
	if (message.role === "user") return [userItem(message, message.origin === "message" ? "user" : "developer")];
	const content = carriedContent(message, TARGET);
	if (message.role === "toolResult")
		return [{ type: "function_call_output", call_id: ids.of(message.toolCallId ?? ""), output: output(content) }];
	const out: Record<string, unknown>[] = [];
	let text: Record<string, unknown>[] = [];
	const flushText = () => {
		if (text.length > 0) out.push({ type: "message", role: "assistant", content: text });
		text = [];
	};
	for (const block of content) {
		if (block.type === "text") text.push({ type: "output_text", text: block.text });
		else if (block.type === "thinking") {
			flushText();
			out.push({
				type: "reasoning",
				summary: [{ type: "summary_text", text: block.thinking }],
				content: null,
				encrypted_content: block.thinkingSignature ?? null,
			});
		} else if (block.type === "toolCall") {
			flushText();
			out.push({
				type: "function_call",
				name: block.name,
				arguments: JSON.stringify(block.arguments),
				call_id: ids.of(block.id),
			});
		}
	}
	flushText();
	// An answer with nothing Codex can carry is still an answer: an empty message keeps its place.
	if (out.length === 0) out.push({ type: "message", role: "assistant", content: [] });
	return out;
}

/** The events Codex writes beside a message: the prompt as typed, the answer's text, and the token count that ends a response. */
function events(message: ContextMessage): Record<string, unknown>[] {
	if (message.role === "user" && message.origin === "message") {
		const content = carriedContent(message, TARGET);
		return [
			{
				type: "user_message",
				message: content.map((block) => (block.type === "text" ? block.text : "")).join(""),
				images: content.flatMap((block) => (block.type === "image" ? [dataUrl(block)] : [])),
				local_images: [],
				text_elements: [],
			},
		];
	}
	if (message.role !== "assistant") return [];
	const text = carriedContent(message, TARGET)
		.map((block) => (block.type === "text" ? block.text : ""))
		.join("");
	const said = text === "" ? [] : [{ type: "agent_message", message: text }];
	const usage = message.usage;
	const tokens = {
		input_tokens: (usage?.input ?? 0) + (usage?.cacheRead ?? 0),
		cached_input_tokens: usage?.cacheRead ?? 0,
		output_tokens: usage?.output ?? 0,
		reasoning_output_tokens: 0,
		total_tokens: usage?.totalTokens ?? 0,
	};
	return [
		...said,
		{ type: "token_count", info: { total_token_usage: tokens, last_token_usage: tokens }, rate_limits: null },
	];
}

/** A user-side message (a prompt, or a custom message as a developer message) as a message item. */
function userItem(message: ContextMessage, role: "user" | "developer"): Record<string, unknown> {
	return { type: "message", role, content: inputParts(carriedContent(message, TARGET)) };
}

/** A tool result's output: its text when that is all it is, else its parts. */
function output(content: ContentBlock[]): unknown {
	const [only] = content;
	if (content.length === 1 && only?.type === "text") return only.text;
	return inputParts(content);
}

/** Text and images as Codex input parts. */
function inputParts(content: ContentBlock[]): Record<string, unknown>[] {
	return content.flatMap<Record<string, unknown>>((block) => {
		if (block.type === "text") return [{ type: "input_text", text: block.text }];
		if (block.type === "image") return [{ type: "input_image", image_url: dataUrl(block) }];
		return [];
	});
}

function dataUrl(block: Extract<ContentBlock, { type: "image" }>): string {
	return `data:${block.mimeType};base64,${block.data}`;
}
