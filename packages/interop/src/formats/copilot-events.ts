import type { ContentBlock, RecordInput } from "@agent/session-format";
import { assistantRecord, imageFromDataUrl, parseToolArguments, text } from "../content.js";
import { isObject, numberField, stringField } from "../json-lines.js";
import type { RecordList } from "../record-list.js";
import type { Warnings } from "../warnings.js";

/** Events that restate what other events hold, or report the run and not the conversation: counted, kept aside. */
const BOOKKEEPING = new Set([
	"assistant.turn_start",
	"assistant.turn_end",
	"tool.execution_start",
	"session.compaction_start",
]);

export const COPILOT_PROVIDER = "github-copilot";

/**
 * Turns GitHub Copilot CLI session events (`~/.copilot/session-state/<id>/events.jsonl`) into
 * records: `user.message` a user message; `assistant.message` an assistant message (its
 * reasoning, text and tool requests); `tool.execution_complete` a tool result named after its
 * request; a successful `session.compaction_complete` a compaction; `session.context_cleared` a
 * new start. Events of sub-agents (an `agentId`, or a `parentToolCallId`: they run inside a tool
 * call of the main agent) are kept as custom records: the main agent's model never saw them.
 */
export class CopilotEvents {
	private readonly toolNames = new Map<string, string>();
	/** Seqs of the messages on the conversation since it last restarted: what a compaction counts back over. */
	private messageSeqs: number[] = [];
	private pendingReasoning: string | undefined;
	private bookkeeping = 0;
	model: string | undefined;
	firstPrompt: string | undefined;

	constructor(
		private readonly list: RecordList,
		private readonly warnings: Warnings,
	) {}

	read(type: string, data: Record<string, unknown>, event: Record<string, unknown>, line: number): void {
		const timestamp = stringField(event, "timestamp");
		if (typeof event.agentId === "string" || typeof data.parentToolCallId === "string") {
			this.keep("copilot:subagent", event, line, "events of a sub-agent (they run inside a tool call)", timestamp);
			return;
		}
		switch (type) {
			case "user.message": {
				const prompt = stringField(data, "content") ?? "";
				this.firstPrompt ??= prompt;
				this.message({ recordType: "message", role: "user", content: [text(prompt)] }, line, timestamp);
				if (Array.isArray(data.attachments) && data.attachments.length > 0) {
					this.keep(
						"copilot:attachments",
						data.attachments,
						line,
						"a prompt's attachments (files, selections)",
						timestamp,
					);
				}
				return;
			}
			case "assistant.reasoning":
				this.pendingReasoning = stringField(data, "content");
				return;
			case "assistant.message":
				this.assistant(data, line, timestamp);
				return;
			case "tool.execution_complete":
				this.toolResult(data, line, timestamp);
				return;
			case "session.model_change":
				this.modelChange(data, line, timestamp);
				return;
			case "system.message":
			case "skill.invoked":
				this.instructions(type, data, event, line, timestamp);
				return;
			case "session.compaction_complete":
				this.compaction(data, event, line, timestamp);
				return;
			case "session.context_cleared":
				this.cleared(data, event, line, timestamp);
				return;
			default:
				if (BOOKKEEPING.has(type)) this.bookkeeping++;
				else this.keep(`copilot:${type}`, event, line, `${type} events have no equivalent`, timestamp);
		}
	}

	finish(): void {
		if (this.bookkeeping > 0) {
			this.warnings.add(
				`${this.bookkeeping} events restate others or mark turns (turn start and end, tool starts, compaction starts) and were not imported again`,
			);
		}
	}

	private assistant(data: Record<string, unknown>, line: number, timestamp: string | undefined): void {
		const content: ContentBlock[] = [];
		const reasoning = stringField(data, "reasoningText") ?? this.pendingReasoning;
		this.pendingReasoning = undefined;
		const opaque = stringField(data, "reasoningOpaque") ?? stringField(data, "encryptedContent");
		if (reasoning || opaque) {
			const block: ContentBlock = { type: "thinking", thinking: reasoning ?? "" };
			if (opaque) block.thinkingSignature = opaque;
			content.push(block);
		}
		const answer = stringField(data, "content") ?? "";
		if (answer !== "") content.push(text(answer));
		for (const request of Array.isArray(data.toolRequests) ? data.toolRequests : []) {
			if (!isObject(request)) continue;
			const id = stringField(request, "toolCallId");
			const name = stringField(request, "name");
			if (!id || !name) continue;
			this.toolNames.set(id, name);
			content.push({ type: "toolCall", id, name, arguments: parseToolArguments(request.arguments).args });
		}
		this.model = stringField(data, "model") ?? this.model;
		const hasCalls = content.some((block) => block.type === "toolCall");
		const record = assistantRecord({
			content,
			api: "openai-completions",
			provider: COPILOT_PROVIDER,
			stopReason: hasCalls ? "toolUse" : "stop",
			model: this.model,
		});
		const output = numberField(data, "outputTokens");
		if (output !== undefined && record.recordType === "message") {
			record.usage = { input: 0, output, cacheRead: 0, cacheWrite: 0, totalTokens: output };
		}
		this.message(record, line, timestamp);
	}

	private toolResult(data: Record<string, unknown>, line: number, timestamp: string | undefined): void {
		const id = stringField(data, "toolCallId");
		if (!id) {
			this.keep("copilot:tool.execution_complete", data, line, "a tool result without toolCallId", timestamp);
			return;
		}
		const name = this.toolNames.get(id);
		if (!name) this.warnings.add('a tool result whose request is not in the file; its tool is named "unknown"', line);
		const result = isObject(data.result) ? data.result : {};
		const error = isObject(data.error) ? stringField(data.error, "message") : undefined;
		const content: ContentBlock[] = [text(stringField(result, "content") ?? error ?? "")];
		for (const part of Array.isArray(result.contents) ? result.contents : []) {
			if (!isObject(part) || part.type !== "image" || typeof part.data !== "string") continue;
			const image = imageFromDataUrl(`data:${stringField(part, "mimeType") ?? "image/png"};base64,${part.data}`);
			if (image) content.push(image);
		}
		this.message(
			{
				recordType: "message",
				role: "toolResult",
				toolCallId: id,
				toolName: name ?? "unknown",
				content,
				isError: data.success !== true,
			},
			line,
			timestamp,
		);
	}

	private modelChange(data: Record<string, unknown>, line: number, timestamp: string | undefined): void {
		const model = stringField(data, "newModel");
		if (model) {
			this.model = model;
			this.list.add(
				stamp({ recordType: "model_change", provider: COPILOT_PROVIDER, modelId: model }, timestamp),
				undefined,
				line,
			);
		}
		const effort = stringField(data, "reasoningEffort");
		if (effort)
			this.list.add(stamp({ recordType: "thinking_level_change", thinkingLevel: effort }, timestamp), undefined, line);
	}

	/** The system prompt is the session's, not a message; developer instructions and a skill's text reach the model as context. */
	private instructions(
		type: string,
		data: Record<string, unknown>,
		event: Record<string, unknown>,
		line: number,
		timestamp: string | undefined,
	): void {
		const content = stringField(data, "content");
		if (content === undefined || (type === "system.message" && data.role !== "developer")) {
			this.keep(`copilot:${type}`, event, line, "the system prompt is the session's own", timestamp);
			return;
		}
		const record: RecordInput = {
			recordType: "custom_message",
			customType: `copilot:${type}`,
			content: [text(content)],
			display: false,
		};
		this.message(record, line, timestamp);
	}

	/**
	 * A compaction: the summary, keeping the messages Copilot kept (the last
	 * preCompactionMessagesLength - messagesRemoved of the conversation; all of them replaced when
	 * the event does not say).
	 */
	private compaction(
		data: Record<string, unknown>,
		event: Record<string, unknown>,
		line: number,
		timestamp: string | undefined,
	): void {
		const summary = stringField(data, "summaryContent");
		if (data.success !== true || summary === undefined) {
			this.keep(
				"copilot:session.compaction_complete",
				event,
				line,
				"a compaction that failed or carries no summary",
				timestamp,
			);
			return;
		}
		const before = numberField(data, "preCompactionMessagesLength");
		const removed = numberField(data, "messagesRemoved");
		const keep =
			before !== undefined && removed !== undefined
				? Math.max(0, Math.min(before - removed, this.messageSeqs.length))
				: 0;
		const firstKept = keep > 0 ? (this.messageSeqs[this.messageSeqs.length - keep] as number) : this.list.nextSeq;
		const record: RecordInput = {
			recordType: "compaction",
			summary,
			firstKeptSeq: firstKept,
			tokensBefore: Math.max(0, Math.round(numberField(data, "preCompactionTokens") ?? 0)),
			readFiles: [],
			modifiedFiles: [],
		};
		if (data.trigger === "manual") record.trigger = "manual";
		const seq = this.list.add(stamp(record, timestamp), undefined, line);
		this.messageSeqs = [...this.messageSeqs.slice(this.messageSeqs.length - keep), seq];
	}

	/** The host cleared the conversation: what follows starts again below the session's first record. */
	private cleared(
		data: Record<string, unknown>,
		event: Record<string, unknown>,
		line: number,
		timestamp: string | undefined,
	): void {
		this.list.branchFrom(1);
		this.list.custom("copilot:session.context_cleared", event, undefined, timestamp);
		this.warnings.add(
			"the conversation was cleared; what came before stays in the session on a branch of its own",
			line,
		);
		this.messageSeqs = [];
		const initial = stringField(data, "initialMessage");
		if (initial) this.message({ recordType: "message", role: "user", content: [text(initial)] }, line, timestamp);
	}

	private message(record: RecordInput, line: number, timestamp: string | undefined): void {
		this.messageSeqs.push(this.list.add(stamp(record, timestamp), undefined, line));
	}

	private keep(customType: string, data: unknown, line: number, what: string, timestamp: string | undefined): void {
		this.warnings.add(`${what}; kept as custom records (${customType}), not sent to the LLM`, line);
		this.list.custom(customType, data, undefined, timestamp);
	}
}

function stamp(record: RecordInput, timestamp: string | undefined): RecordInput {
	if (timestamp) record.timestamp = timestamp;
	return record;
}
