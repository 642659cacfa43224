import type { RecordInput } from "@agent/session-format";
import { assistantRecord } from "../content.js";
import { isObject, stringField } from "../json-lines.js";
import type { RecordList } from "../record-list.js";
import type { Warnings } from "../warnings.js";
import {
	claudeAssistantContent,
	claudeStopReason,
	claudeUsage,
	claudeUserContent,
	type SplitContent,
} from "./claude-content.js";

export const CHAIN_TYPES = new Set(["user", "assistant", "system"]);

/** A tool result whose tool_use is not in the file is still a tool result: it needs a name. */
const UNKNOWN_TOOL = "unknown";

export interface Line {
	line: number;
	value: Record<string, unknown>;
}

/** Reads a Claude Code file line by line into records; every decision depends only on the lines before. */
export class ClaudeState {
	private readonly seqByUuid = new Map<string, number>();
	private readonly seqByMessageId = new Map<string, number>();
	/** Children of a record attach below this one instead: kept lines and parallel tool results stay in one chain. */
	private readonly continueAt = new Map<number, number>();
	/** The last tool result hung under an assistant message: the next one of the same message joins after it. */
	private readonly lastResultOf = new Map<number, number>();
	private readonly toolNames = new Map<string, string>();
	private boundary: Line | undefined;
	private mainLeaf = 0;
	private anyLeaf = 0;
	title: string | undefined;
	summary: string | undefined;
	model: string | undefined;

	constructor(
		private readonly list: RecordList,
		private readonly warnings: Warnings,
		private readonly headerSeq: number,
		/** Every uuid of the file: a summary names this session only when its leafUuid is one of them. */
		private readonly uuids: ReadonlySet<string>,
	) {}

	read(entry: Line): void {
		const { value, line } = entry;
		const type = String(value.type);
		if (!CHAIN_TYPES.has(type) || typeof value.uuid !== "string") {
			this.offChain(entry);
			return;
		}
		if (this.boundary && !(type === "user" && value.isCompactSummary === true)) this.keepBoundary();
		if (type === "system" && value.subtype === "compact_boundary") {
			this.boundary = entry;
			return;
		}
		const parent = this.parentOf(value, line);
		let seq: number;
		if (type === "user" && value.isCompactSummary === true) seq = this.compaction(entry, parent);
		else if (type === "user") seq = this.user(entry, parent);
		else if (type === "assistant") seq = this.assistant(entry, parent);
		else seq = this.keep(entry, parent, `a system line (${String(value.subtype ?? "no subtype")}) has no equivalent`);
		this.seqByUuid.set(value.uuid, seq);
		this.anyLeaf = seq;
		if (value.isSidechain !== true) this.mainLeaf = seq;
	}

	finish(): void {
		if (this.boundary) this.keepBoundary();
		this.list.settleLeaf(this.mainLeaf || this.anyLeaf);
	}

	/** Where a child of `seq` goes: past the records chained in after it. */
	private attachTo(seq: number): number {
		let at = seq;
		for (let next = this.continueAt.get(at); next !== undefined; next = this.continueAt.get(at)) at = next;
		return at;
	}

	private parentOf(value: Record<string, unknown>, line: number): number {
		const parentUuid = value.parentUuid;
		if (parentUuid === null || parentUuid === undefined) return this.attachTo(this.headerSeq);
		const seq = typeof parentUuid === "string" ? this.seqByUuid.get(parentUuid) : undefined;
		if (seq !== undefined) return this.attachTo(seq);
		this.warnings.add("a line whose parentUuid is not in the file; it becomes a root", line);
		return this.attachTo(this.headerSeq);
	}

	private user({ value, line }: Line, parent: number): number {
		const message = isObject(value.message) ? value.message : {};
		const content = claudeUserContent(message.content);
		let seq = parent;
		// Claude Code hangs each result of parallel tool calls under the line of its own call; those
		// lines are one message here, so the results follow one another as the API received them.
		const answered = this.list.get(parent);
		const isAnswer =
			answered?.recordType === "message" && answered.role === "assistant" && content.toolResults.length > 0;
		if (isAnswer && this.lastResultOf.has(parent)) seq = this.attachTo(this.lastResultOf.get(parent) as number);
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
		if (isAnswer) this.lastResultOf.set(parent, seq);
		if (content.blocks.length > 0 || content.toolResults.length === 0) {
			seq = this.list.add(stamp({ recordType: "message", role: "user", content: content.blocks }, value), seq, line);
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

	/** A compaction summary message (after its compact_boundary, when there is one). */
	private compaction({ value, line }: Line, parent: number): number {
		const boundary = this.boundary;
		this.boundary = undefined;
		const message = isObject(value.message) ? value.message : {};
		const summary = claudeUserContent(message.content)
			.blocks.map((block) => (block.type === "text" ? block.text : ""))
			.join("\n");
		let at = parent;
		let tokensBefore = 0;
		let trigger: "manual" | "threshold" | undefined;
		if (boundary) {
			const logical = boundary.value.logicalParentUuid;
			const logicalSeq = typeof logical === "string" ? this.seqByUuid.get(logical) : undefined;
			at = this.attachTo(logicalSeq ?? this.headerSeq);
			const meta = isObject(boundary.value.compactMetadata) ? boundary.value.compactMetadata : {};
			if (typeof meta.preTokens === "number") tokensBefore = Math.max(0, Math.round(meta.preTokens));
			if (meta.trigger === "manual") trigger = "manual";
			else if (meta.trigger === "auto") trigger = "threshold";
		}
		const record: RecordInput = {
			recordType: "compaction",
			summary,
			firstKeptSeq: this.list.nextSeq,
			tokensBefore,
			readFiles: [],
			modifiedFiles: [],
		};
		if (trigger) record.trigger = trigger;
		const seq = this.list.add(stamp(record, value), at, line);
		if (boundary) this.seqByUuid.set(boundary.value.uuid as string, seq);
		return seq;
	}

	/** A compact_boundary with no summary after it. */
	private keepBoundary(): void {
		const boundary = this.boundary as Line;
		this.boundary = undefined;
		const parent = this.parentOf(boundary.value, boundary.line);
		const seq = this.keep(boundary, parent, "a compact_boundary without the summary message after it");
		this.seqByUuid.set(boundary.value.uuid as string, seq);
	}

	/**
	 * Lines outside the uuid chain (titles, summaries, file-history snapshots, queue operations)
	 * are chained in after the current leaf: the next message continues below them, so they never
	 * form branches of their own.
	 */
	private offChain(entry: Line): void {
		const { value, line } = entry;
		const leaf = this.mainLeaf || this.anyLeaf || this.headerSeq;
		const at = this.attachTo(leaf);
		let seq: number;
		if (value.type === "custom-title" && typeof value.customTitle === "string") {
			this.title = value.customTitle;
			seq = this.list.add(stamp({ recordType: "session_info", name: value.customTitle }, value), at, line);
		} else if (value.type === "summary" && typeof value.summary === "string") {
			const ownLeaf = typeof value.leafUuid === "string" && this.uuids.has(value.leafUuid);
			if (ownLeaf) this.summary = value.summary;
			seq = this.list.custom("claude:summary", value, at);
		} else {
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

function stamp(record: RecordInput, value: Record<string, unknown>): RecordInput {
	const timestamp = stringField(value, "timestamp");
	if (timestamp) record.timestamp = timestamp;
	return record;
}
