import type { ContentBlock, RecordInput, Usage } from "@agent/session-format";
import { assistantRecord, imageFromDataUrl, parseToolArguments, text } from "../content.js";
import { isObject, stringField } from "../json-lines.js";
import type { RecordList } from "../record-list.js";
import type { Warnings } from "../warnings.js";
import { isSummaryText, outputContent } from "./codex-content.js";
import { CodexTurns } from "./codex-turns.js";

/** Where a Codex response item is being read: the file line and its time. */
export interface ItemSource {
	line: number;
	timestamp: string | undefined;
}

/**
 * Turns Codex response items into records. The items of one model response (reasoning,
 * output text, function calls) arrive as separate lines: consecutive ones are gathered into
 * one assistant message, flushed when a user message or a tool output arrives.
 */
export class CodexItemReader {
	private pending: { content: ContentBlock[]; source: ItemSource; usage?: Usage } | undefined;
	private readonly toolNames = new Map<string, string>();
	private lastAssistant: RecordInput | undefined;
	/** Texts of the user messages since the model last answered: an event_msg restating one of them adds nothing. */
	private recentPrompts: string[] = [];
	/** A prompt taken from an event_msg (no response item held it): a user message restating it later is not added again. */
	private promptFromEvent: string | undefined;
	/** Whether the last response item read was a user message: Codex writes the event_msg restating a prompt right after it. */
	justPrompted = false;
	provider = "openai";
	model: string | undefined;
	/** The user turns read so far, for rollbacks. */
	readonly turns: CodexTurns;

	constructor(
		private readonly list: RecordList,
		private readonly warnings: Warnings,
	) {
		this.turns = new CodexTurns(list);
	}

	/** Reads one response item; `skipText` is a user text to leave out (a summary our compaction carries). */
	read(item: Record<string, unknown>, source: ItemSource, skipText?: string): void {
		this.justPrompted = item.type === "message" && item.role === "user";
		switch (item.type) {
			case "message":
				this.message(item, source, skipText);
				return;
			case "reasoning":
				this.reasoning(item, source);
				return;
			case "function_call": {
				const callId = stringField(item, "call_id");
				const name = stringField(item, "name");
				if (!callId || !name) {
					this.keep(item, source, "a function_call without call_id or name");
					return;
				}
				const { args, parsed } = parseToolArguments(item.arguments);
				if (!parsed)
					this.warnings.add("function_call arguments that are not a JSON object; kept under `input`", source.line);
				this.toolCall(callId, name, args, source);
				return;
			}
			case "custom_tool_call": {
				const callId = stringField(item, "call_id");
				const name = stringField(item, "name");
				if (!callId || !name) {
					this.keep(item, source, "a custom_tool_call without call_id or name");
					return;
				}
				this.toolCall(callId, name, { input: item.input }, source);
				return;
			}
			case "local_shell_call": {
				const callId = stringField(item, "call_id") ?? stringField(item, "id");
				if (!callId) {
					this.keep(item, source, "a local_shell_call without call_id");
					return;
				}
				this.toolCall(callId, "local_shell", isObject(item.action) ? item.action : {}, source);
				return;
			}
			case "function_call_output":
			case "custom_tool_call_output":
				this.toolOutput(item, source);
				return;
			case "agent_message":
				this.agentMessage(item, source);
				return;
			default:
				this.keep(item, source, `a ${JSON.stringify(item.type)} response item, which has no equivalent`);
				return;
		}
	}

	/**
	 * An `event_msg` user_message: the prompt as the UI saw it. Most rollouts hold it as a user
	 * response item too; when none of the user messages since the model last answered holds it,
	 * it becomes the user message. Returns whether it did.
	 */
	eventPrompt(payload: Record<string, unknown>, source: ItemSource): boolean {
		const message = stringField(payload, "message") ?? "";
		const images = Array.isArray(payload.images) ? payload.images : [];
		if (this.justPrompted || this.recentPrompts.includes(message.trim())) {
			this.justPrompted = false;
			return false;
		}
		const content: ContentBlock[] = message === "" ? [] : [text(message)];
		for (const url of images) {
			const image = typeof url === "string" ? imageFromDataUrl(url) : undefined;
			if (image) content.push(image);
		}
		if (content.length === 0) return false;
		this.flush();
		this.add({ recordType: "message", role: "user", content }, source);
		this.promptFromEvent = message.trim();
		this.recentPrompts.push(message.trim());
		return true;
	}

	/** Attaches a token_count's last usage to the assistant message being gathered, or the latest one without usage. */
	usage(usage: Usage): void {
		if (this.pending) {
			this.pending.usage = usage;
			return;
		}
		const target = this.lastAssistant;
		if (target && target.recordType === "message" && target.usage === undefined) target.usage = usage;
	}

	/** Writes the assistant message being gathered, if any. */
	flush(): void {
		const pending = this.pending;
		if (!pending) return;
		this.pending = undefined;
		const hasToolCall = pending.content.some((block) => block.type === "toolCall");
		const record = assistantRecord({
			content: pending.content,
			api: "openai-responses",
			provider: this.provider,
			stopReason: hasToolCall ? "toolUse" : "stop",
			model: this.model,
			usage: pending.usage,
		});
		if (pending.source.timestamp) record.timestamp = pending.source.timestamp;
		this.list.add(record, undefined, pending.source.line);
		this.lastAssistant = this.list.get(this.list.lastSeq);
	}

	/** Keeps an item with no equivalent as a custom record (never sent to the LLM). */
	keep(item: Record<string, unknown>, source: ItemSource, reason: string): void {
		const customType = `codex:${String(item.type)}`;
		this.warnings.add(`${reason}; kept as a custom record (${customType}), not sent to the LLM`, source.line);
		this.list.custom(customType, item, undefined, source.timestamp);
	}

	private message(item: Record<string, unknown>, source: ItemSource, skipText?: string): void {
		const role = stringField(item, "role");
		const content = this.messageContent(item.content, source);
		if (role === "assistant") {
			this.gather(content, source);
			return;
		}
		this.flush();
		if (skipText !== undefined && content.some((block) => isSummaryText(block, skipText))) return;
		if (role === "user") {
			const prompt = content
				.map((block) => (block.type === "text" ? block.text : ""))
				.join("")
				.trim();
			if (this.promptFromEvent !== undefined && prompt === this.promptFromEvent) return;
			this.recentPrompts.push(prompt);
			this.add({ recordType: "message", role: "user", content }, source);
			return;
		}
		// developer and system messages reach the model too: sent as user-role custom messages.
		this.warnings.add(
			`${role ?? "role-less"} messages have no role of ours; sent to the LLM as custom messages (codex:${role})`,
			source.line,
		);
		this.add(
			{
				recordType: "custom_message",
				customType: `codex:${role ?? "message"}`,
				content: content.filter((block) => block.type === "text" || block.type === "image"),
				display: false,
			},
			source,
		);
	}

	private messageContent(value: unknown, source: ItemSource): ContentBlock[] {
		const out: ContentBlock[] = [];
		for (const part of Array.isArray(value) ? value : []) {
			if (!isObject(part)) continue;
			const partText = stringField(part, "text");
			if ((part.type === "input_text" || part.type === "output_text") && partText !== undefined) {
				out.push(text(partText));
			} else if (part.type === "input_image" && typeof part.image_url === "string") {
				const image = imageFromDataUrl(part.image_url);
				if (image) out.push(image);
				else {
					this.warnings.add("an image given by URL, not data; kept as its URL in text", source.line);
					out.push(text(`[image: ${part.image_url}]`));
				}
			} else {
				this.warnings.add(
					`message content of type ${JSON.stringify(part.type)} has no equivalent; kept as text`,
					source.line,
				);
				out.push(text(JSON.stringify(part)));
			}
		}
		return out;
	}

	private reasoning(item: Record<string, unknown>, source: ItemSource): void {
		const texts = (list: unknown) =>
			(Array.isArray(list) ? list : []).flatMap((part) =>
				isObject(part) && typeof part.text === "string" ? [part.text] : [],
			);
		const summary = texts(item.summary);
		const thinking = (summary.length > 0 ? summary : texts(item.content)).join("\n\n");
		const encrypted = stringField(item, "encrypted_content");
		if (thinking === "" && !encrypted) return;
		const block: ContentBlock = { type: "thinking", thinking };
		if (encrypted) block.thinkingSignature = encrypted;
		this.gather([block], source);
	}

	private toolCall(id: string, name: string, args: Record<string, unknown>, source: ItemSource): void {
		this.toolNames.set(id, name);
		this.gather([{ type: "toolCall", id, name, arguments: args }], source);
	}

	private toolOutput(item: Record<string, unknown>, source: ItemSource): void {
		this.flush();
		const callId = stringField(item, "call_id");
		if (!callId) {
			this.keep(item, source, "a tool output without call_id");
			return;
		}
		const { content, isError } = outputContent(item.output);
		const record: RecordInput = { recordType: "message", role: "toolResult", toolCallId: callId, content, isError };
		const name = this.toolNames.get(callId);
		if (!name)
			this.warnings.add('a tool output whose call is not in the file; its tool is named "unknown"', source.line);
		record.toolName = name ?? "unknown";
		this.add(record, source);
	}

	private gather(content: ContentBlock[], source: ItemSource): void {
		this.recentPrompts = [];
		this.promptFromEvent = undefined;
		if (this.pending) this.pending.content.push(...content);
		else this.pending = { content: [...content], source };
	}

	/**
	 * A message from another agent (Codex's multi-agent threads: an `agent_message` response item or
	 * an `inter_agent_communication` line): the model reads it as input, so it is a custom message
	 * the LLM sees, naming its author.
	 */
	agentMessage(item: Record<string, unknown>, source: ItemSource, customType = "codex:agent_message"): void {
		this.flush();
		const parts = typeof item.content === "string" ? [item.content] : Array.isArray(item.content) ? item.content : [];
		const texts = parts.map((part) =>
			typeof part === "string"
				? part
				: isObject(part) && typeof part.text === "string"
					? part.text
					: "[encrypted message]",
		);
		const details: Record<string, unknown> = {};
		for (const key of ["author", "recipient", "other_recipients", "trigger_turn"])
			if (item[key] !== undefined) details[key] = item[key];
		this.add(
			{ recordType: "custom_message", customType, content: texts.map((t) => text(t)), display: true, details },
			source,
		);
	}

	private add(record: RecordInput, source: ItemSource): void {
		if (source.timestamp) record.timestamp = source.timestamp;
		const seq = this.list.add(record, undefined, source.line);
		this.turns.note(seq, record);
	}
}
