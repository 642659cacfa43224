import type { RecordInput } from "@agent/session-format";
import { assistantRecord, userBlocks } from "../content.js";
import { isObject, stringField } from "../json-lines.js";
import type { RecordList } from "../record-list.js";
import type { Warnings } from "../warnings.js";
import { classifyAttachment } from "./claude-attachments.js";
import { ClaudeCompactions } from "./claude-compaction.js";
import {
	claudeAssistantContent,
	claudeStopReason,
	claudeUsage,
	claudeUserContent,
	type SplitContent,
} from "./claude-content.js";

/** A tool result whose tool_use is not in the file is still a tool result: it needs a name. */
const UNKNOWN_TOOL = "unknown";

export interface Line {
	line: number;
	value: Record<string, unknown>;
}

/**
 * Reads a Claude Code file line by line into records; every decision depends only on the lines
 * before. Every line with a uuid is a node of the tree (Claude Code chains messages through
 * progress, attachment and system lines too); the nodes the model never sees are kept as custom
 * records chained in where they hang, so they never make branches of their own.
 */
export class ClaudeState {
	private readonly seqByUuid = new Map<string, number>();
	private readonly seqByMessageId = new Map<string, number>();
	/** Children of a record attach below this one instead: kept lines and parallel tool results stay in one chain. */
	private readonly continueAt = new Map<number, number>();
	/** The last tool result hung under an assistant message: the next one of the same message joins after it. */
	private readonly lastResultOf = new Map<number, number>();
	private readonly toolNames = new Map<string, string>();
	private readonly compactions: ClaudeCompactions;
	private mainLeaf = 0;
	private anyLeaf = 0;
	title: string | undefined;
	aiTitle: string | undefined;
	summary: string | undefined;
	model: string | undefined;

	constructor(
		private readonly list: RecordList,
		private readonly warnings: Warnings,
		private readonly headerSeq: number,
		/** Every uuid of the file: a summary names this session only when its leafUuid is one of them. */
		private readonly uuids: ReadonlySet<string>,
	) {
		this.compactions = new ClaudeCompactions(list, warnings, {
			seqOf: (uuid) => this.seqByUuid.get(uuid),
			attachTo: (seq) => this.attachTo(seq),
			remap: (uuid, seq) => this.seqByUuid.set(uuid, seq),
		});
	}

	read(entry: Line): void {
		const { value, line } = entry;
		if (typeof value.uuid !== "string") {
			this.offChain(entry);
			return;
		}
		const type = String(value.type);
		let seq: number;
		let sent = true;
		if (type === "system" && value.subtype === "compact_boundary") {
			seq = this.compactions.boundary(entry, this.parentOf(value, line), this.tip());
			sent = false;
		} else if (type === "user" && value.isCompactSummary === true) {
			seq = this.compactions.summary(entry, this.parentOf(value, line), stamp);
		} else if (type === "user") seq = this.user(entry, this.parentOf(value, line));
		else if (type === "assistant") seq = this.assistant(entry, this.parentOf(value, line));
		else if (type === "attachment") {
			const kind = classifyAttachment(value.attachment);
			const attachmentType = isObject(value.attachment) ? String(value.attachment.type) : "none";
			if (kind.kind === "kept") {
				seq = this.transparent(entry, `an attachment (${attachmentType}) Claude Code does not send the model`);
				sent = false;
			} else {
				const record: RecordInput =
					kind.kind === "prompt"
						? { recordType: "message", role: "user", content: kind.content }
						: {
								recordType: "custom_message",
								customType: "claude:attachment",
								content: userBlocks(kind.content),
								display: false,
								details: value.attachment,
							};
				seq = this.list.add(stamp(record, value), this.parentOf(value, line), line);
			}
		} else {
			const what =
				type === "system"
					? `a system line (${String(value.subtype ?? "no subtype")})`
					: `a ${JSON.stringify(type)} line`;
			seq = this.transparent(entry, `${what} has no equivalent`);
			sent = false;
		}
		this.seqByUuid.set(value.uuid, seq);
		if (sent) {
			this.anyLeaf = seq;
			if (value.isSidechain !== true) this.mainLeaf = seq;
		}
	}

	finish(): void {
		this.compactions.finish();
		this.list.settleLeaf(this.mainLeaf || this.anyLeaf);
	}

	/** Where a child of `seq` goes: past the records chained in after it. */
	private attachTo(seq: number): number {
		let at = seq;
		for (let next = this.continueAt.get(at); next !== undefined; next = this.continueAt.get(at)) at = next;
		return at;
	}

	/** The end of the conversation read so far, where lines that name no place of their own are chained in. */
	private tip(): number {
		return this.attachTo(this.mainLeaf || this.anyLeaf || this.headerSeq);
	}

	private parentOf(value: Record<string, unknown>, line: number): number {
		const parentUuid = value.parentUuid;
		if (parentUuid === null || parentUuid === undefined) return this.attachTo(this.headerSeq);
		const seq = typeof parentUuid === "string" ? this.seqByUuid.get(parentUuid) : undefined;
		if (seq !== undefined) return this.attachTo(seq);
		this.warnings.add(
			"a line whose parentUuid is not in the file (it starts mid-conversation); it continues from the start",
			line,
		);
		return this.attachTo(this.headerSeq);
	}

	/**
	 * A node the model never sees (progress, system, an attachment not sent): a custom record under
	 * its parent, or at the tip when its parent already has children, so it never forks the tree.
	 * Children of its parent continue below it.
	 */
	private transparent(entry: Line, reason: string): number {
		let at = this.parentOf(entry.value, entry.line);
		if (this.list.hasChildren(at)) at = this.tip();
		const seq = this.keep(entry, at, reason);
		this.continueAt.set(at, seq);
		return seq;
	}

	/** The assistant message a line hung under `seq` answers, looking past kept records; undefined when there is none. */
	private answeredBy(seq: number): number | undefined {
		let current: number | null = seq;
		while (current !== null && current >= 1) {
			const record = this.list.get(current);
			if (record?.recordType === "message") return record.role === "assistant" ? current : undefined;
			if (record?.recordType !== "custom") return undefined;
			current = record.parentSeq === undefined ? current - 1 : record.parentSeq;
		}
		return undefined;
	}

	private user({ value, line }: Line, parent: number): number {
		const message = isObject(value.message) ? value.message : {};
		const content = claudeUserContent(message.content);
		let seq = parent;
		// Claude Code hangs each result of parallel tool calls under the line of its own call; those
		// lines are one message here, so the results follow one another as the API received them.
		const answered = content.toolResults.length > 0 ? this.answeredBy(parent) : undefined;
		const last = answered === undefined ? undefined : this.lastResultOf.get(answered);
		if (last !== undefined) seq = this.attachTo(last);
		for (const result of content.toolResults) {
			const toolName = this.toolNames.get(result.toolCallId);
			if (!toolName)
				this.warnings.add('a tool result whose tool call is not in the file; its tool is named "unknown"', line);
			const record: RecordInput = {
				recordType: "message",
				role: "toolResult",
				toolCallId: result.toolCallId,
				toolName: toolName ?? UNKNOWN_TOOL,
				content: result.content,
				isError: result.isError,
			};
			if (content.toolResults.length === 1 && value.toolUseResult !== undefined) record.details = value.toolUseResult;
			const previous = seq;
			seq = this.list.add(stamp(record, value), seq, line);
			if (previous !== parent) this.continueAt.set(previous, seq);
		}
		if (answered !== undefined) this.lastResultOf.set(answered, seq);
		if (content.blocks.length > 0 || content.toolResults.length === 0) {
			// A meta line (a command's caveat, a skill's text) reaches the model but is not something the user typed.
			const record: RecordInput =
				value.isMeta === true
					? {
							recordType: "custom_message",
							customType: "claude:meta",
							content: userBlocks(content.blocks),
							display: false,
						}
					: { recordType: "message", role: "user", content: content.blocks };
			seq = this.list.add(stamp(record, value), seq, line);
		}
		this.keepUnknown(content, seq, value, line);
		return seq;
	}

	private assistant({ value, line }: Line, parent: number): number {
		const message = isObject(value.message) ? value.message : {};
		const content = claudeAssistantContent(message.content);
		for (const block of content.blocks) if (block.type === "toolCall") this.toolNames.set(block.id, block.name);
		const messageId = stringField(message, "id");
		const merged = messageId === undefined ? undefined : this.seqByMessageId.get(messageId);
		const model = stringField(message, "model");
		if (model && model !== "<synthetic>") this.model = model;
		if (merged !== undefined) {
			// One API response split over several lines: its blocks join the first line's message,
			// and this line is the same record in the tree.
			const record = this.list.get(merged);
			if (record?.recordType === "message") {
				record.content.push(...content.blocks);
				const usage = claudeUsage(message.usage);
				if (usage) record.usage = usage;
				const hasToolCall = record.content.some((block) => block.type === "toolCall");
				record.stopReason = claudeStopReason(message.stop_reason ?? undefined, hasToolCall);
			}
			this.keepUnknown(content, merged, value, line);
			return merged;
		}
		const hasToolCall = content.blocks.some((block) => block.type === "toolCall");
		const record = assistantRecord({
			content: content.blocks,
			api: "anthropic-messages",
			provider: "anthropic",
			stopReason: claudeStopReason(message.stop_reason, hasToolCall),
			model,
			usage: claudeUsage(message.usage),
		});
		if (value.isApiErrorMessage === true && record.recordType === "message") {
			record.stopReason = "error";
			record.errorMessage = content.blocks.map((block) => (block.type === "text" ? block.text : "")).join("\n");
		}
		const seq = this.list.add(stamp(record, value), parent, line);
		if (messageId !== undefined) this.seqByMessageId.set(messageId, seq);
		this.keepUnknown(content, seq, value, line);
		return seq;
	}

	/**
	 * Lines outside the uuid chain (titles, summaries, file-history snapshots, queue operations,
	 * prompt and mode markers) are chained in after the current leaf: the next message continues
	 * below them, so they never form branches of their own.
	 */
	private offChain(entry: Line): void {
		const { value, line } = entry;
		const at = this.tip();
		let seq: number;
		if (value.type === "custom-title" && typeof value.customTitle === "string") {
			this.title = value.customTitle;
			seq = this.list.add(stamp({ recordType: "session_info", name: value.customTitle }, value), at, line);
		} else if (value.type === "summary" && typeof value.summary === "string") {
			const ownLeaf = typeof value.leafUuid === "string" && this.uuids.has(value.leafUuid);
			if (ownLeaf) this.summary = value.summary;
			seq = this.list.custom("claude:summary", value, at);
		} else {
			if (value.type === "ai-title" && typeof value.aiTitle === "string") this.aiTitle = value.aiTitle;
			seq = this.keep(entry, at, `a ${JSON.stringify(value.type)} line has no equivalent`);
		}
		this.continueAt.set(at, seq);
	}

	private keep({ value, line }: Line, parent: number, reason: string): number {
		const customType = `claude:${String(value.type)}`;
		this.warnings.add(`${reason}; kept as a custom record (${customType}), not sent to the LLM`, line);
		return this.list.add(stamp({ recordType: "custom", customType, data: value }, value), parent, line);
	}

	private keepUnknown(content: SplitContent, seq: number, value: Record<string, unknown>, line: number): void {
		if (content.approximated > 0) this.warnings.add("an image given by URL, not data; kept as its URL in text", line);
		if (content.unknown.length === 0) return;
		const types = content.unknown.map((block) => (isObject(block) ? String(block.type) : typeof block)).join(", ");
		this.warnings.add(
			`content blocks without an equivalent (${types}); kept in a custom record (claude:content) beside the message`,
			line,
		);
		const at = this.attachTo(seq);
		const kept = this.list.add(
			stamp({ recordType: "custom", customType: "claude:content", data: content.unknown }, value),
			at,
			line,
		);
		this.continueAt.set(at, kept);
	}
}

export function stamp(record: RecordInput, value: Record<string, unknown>): RecordInput {
	const timestamp = stringField(value, "timestamp");
	if (timestamp) record.timestamp = timestamp;
	return record;
}
