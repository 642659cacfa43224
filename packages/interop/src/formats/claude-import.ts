import type { RecordInput } from "@agent/session-format";
import { invalidSource, sourceLabel } from "../errors.js";
import { isObject, parseJsonLines, stringField } from "../json-lines.js";
import { RecordList } from "../record-list.js";
import type { ConvertedSession, ConvertOptions } from "../types.js";
import { Warnings } from "../warnings.js";
import {
	claudeAssistantContent,
	claudeStopReason,
	claudeUsage,
	claudeUserContent,
	type SplitContent,
} from "./claude-content.js";

const CHAIN_TYPES = new Set(["user", "assistant", "system"]);

interface Line {
	line: number;
	value: Record<string, unknown>;
}

/**
 * Converts a Claude Code session (`~/.claude/projects/<cwd>/<sessionId>.jsonl`). The uuid /
 * parentUuid tree is kept (roots hang from record 1, which keeps the session's envelope);
 * assistant lines sharing `message.id` are merged into one message; a `compact_boundary` and
 * the `isCompactSummary` message after it become one compaction, placed under the boundary's
 * logicalParentUuid so the history before it stays on its path. The active leaf is the last
 * main-chain (not sidechain) message.
 */
export function convertClaude(lines: readonly string[], options: ConvertOptions = {}): ConvertedSession {
	const warnings = new Warnings();
	const parsed: Line[] = [];
	for (const { line, value } of parseJsonLines(lines, warnings)) {
		if (isObject(value)) parsed.push({ line, value });
		else warnings.add("a line that is not a JSON object was skipped", line);
	}
	const chain = parsed.filter(({ value }) => CHAIN_TYPES.has(String(value.type)) && typeof value.uuid === "string");
	const firstChain = chain[0]?.value;
	const sourceId = claudeSourceId(chain, options.sourcePath);
	const list = new RecordList(warnings);
	const headerSeq = list.custom(
		"claude:session",
		{
			sessionId: firstChain?.sessionId,
			cwd: firstChain?.cwd,
			version: firstChain?.version,
			gitBranch: firstChain?.gitBranch,
		},
		null,
		stringField(firstChain ?? {}, "timestamp"),
	);
	const state = new ClaudeState(list, warnings, headerSeq);
	for (const entry of parsed) state.read(entry);
	state.finish();

	const result: ConvertedSession = { format: "claude", sourceId, records: list.records, warnings: warnings.list() };
	const createdAt = stringField(firstChain ?? {}, "timestamp");
	if (createdAt) result.createdAt = createdAt;
	const cwd = stringField(firstChain ?? {}, "cwd");
	if (cwd) result.cwd = cwd;
	const name = state.title ?? state.summary;
	if (name) result.name = name;
	if (state.model) result.model = `anthropic/${state.model}`;
	return result;
}

/** The session id: the file's name when it is one of the ids in it, an agent file's id, else the first id. */
function claudeSourceId(chain: readonly Line[], sourcePath: string | undefined): string {
	const ids = new Set(chain.map(({ value }) => value.sessionId).filter((id): id is string => typeof id === "string"));
	const base = sourcePath
		?.split(/[\\/]/)
		.pop()
		?.replace(/\.jsonl$/, "");
	if (base && ids.has(base)) return base;
	const first = ids.values().next().value;
	const agentId = chain.find(({ value }) => typeof value.agentId === "string")?.value.agentId;
	if (first && typeof agentId === "string" && chain.every(({ value }) => value.isSidechain === true)) {
		return `${first}/agent-${agentId}`;
	}
	if (first) return first;
	throw invalidSource(
		sourceLabel(sourcePath),
		"has no user or assistant line with a sessionId and uuid",
		"Check that this is a Claude Code session (~/.claude/projects/<project>/<sessionId>.jsonl), or use --from auto",
	);
}

class ClaudeState {
	private readonly seqByUuid = new Map<string, number>();
	private readonly seqByMessageId = new Map<string, number>();
	/** Tool names by tool call id: a tool_result names only the call it answers. */
	private readonly toolNames = new Map<string, string>();
	private boundary: Line | undefined;
	private leafSeq = 0;
	title: string | undefined;
	summary: string | undefined;
	model: string | undefined;

	constructor(
		private readonly list: RecordList,
		private readonly warnings: Warnings,
		private readonly headerSeq: number,
	) {}

	read(entry: Line): void {
		const { value, line } = entry;
		const type = String(value.type);
		if (this.boundary && !(type === "user" && value.isCompactSummary === true)) this.keepBoundary();
		if (!CHAIN_TYPES.has(type) || typeof value.uuid !== "string") {
			this.offChain(entry);
			return;
		}
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
		if (value.isSidechain !== true || this.leafSeq === 0) this.leafSeq = seq;
	}

	finish(): void {
		if (this.boundary) this.keepBoundary();
		this.list.settleLeaf(this.leafSeq);
	}

	private parentOf(value: Record<string, unknown>, line: number): number {
		const parentUuid = value.parentUuid;
		if (parentUuid === null || parentUuid === undefined) return this.headerSeq;
		const seq = typeof parentUuid === "string" ? this.seqByUuid.get(parentUuid) : undefined;
		if (seq !== undefined) return seq;
		this.warnings.add("a line whose parentUuid is not in the file; it becomes a root", line);
		return this.headerSeq;
	}

	private user({ value, line }: Line, parent: number): number {
		const message = isObject(value.message) ? value.message : {};
		const content = claudeUserContent(message.content);
		let seq = parent;
		for (const result of content.toolResults) {
			const toolName = this.toolNames.get(result.toolCallId);
			if (toolName === undefined)
				this.warnings.add('a tool_result whose tool_use is not in the file; its tool is named "unknown"', line);
			const record: RecordInput = {
				recordType: "message",
				role: "toolResult",
				toolCallId: result.toolCallId,
				toolName: toolName ?? "unknown",
				content: result.content,
				isError: result.isError,
			};
			if (content.toolResults.length === 1 && value.toolUseResult !== undefined) record.details = value.toolUseResult;
			seq = this.list.add(stamp(record, value), seq, line);
		}
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
			// and this line is transparent in the tree (its children hang from its parent).
			const record = this.list.get(merged);
			if (record?.recordType === "message") {
				record.content.push(...content.blocks);
				const usage = claudeUsage(message.usage);
				if (usage) record.usage = usage;
				const hasToolCall = record.content.some((block) => block.type === "toolCall");
				record.stopReason = claudeStopReason(message.stop_reason ?? undefined, hasToolCall);
			}
			this.keepUnknown(content, merged, value, line);
			return parent;
		}
		const hasToolCall = content.blocks.some((block) => block.type === "toolCall");
		const record: RecordInput = {
			recordType: "message",
			role: "assistant",
			content: content.blocks,
			api: "anthropic-messages",
			provider: "anthropic",
			stopReason: claudeStopReason(message.stop_reason, hasToolCall),
		};
		if (model) record.model = model;
		const usage = claudeUsage(message.usage);
		if (usage) record.usage = usage;
		if (value.isApiErrorMessage === true) {
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
			at = typeof logical === "string" ? (this.seqByUuid.get(logical) ?? this.headerSeq) : this.headerSeq;
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

	/** Lines outside the uuid chain: titles, summaries, file-history snapshots, queue operations. */
	private offChain(entry: Line): void {
		const { value, line } = entry;
		const at = this.leafSeq || this.headerSeq;
		if (value.type === "custom-title" && typeof value.customTitle === "string") {
			this.title = value.customTitle;
			this.list.add(stamp({ recordType: "session_info", name: value.customTitle }, value), at, line);
			return;
		}
		if (value.type === "summary" && typeof value.summary === "string") {
			this.summary = value.summary;
			this.list.custom("claude:summary", value, at);
			return;
		}
		this.keep(entry, at, `a ${JSON.stringify(value.type)} line has no equivalent`);
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
		this.list.add(
			stamp({ recordType: "custom", customType: "claude:content", data: content.unknown }, value),
			seq,
			line,
		);
	}
}

function stamp(record: RecordInput, value: Record<string, unknown>): RecordInput {
	const timestamp = stringField(value, "timestamp");
	if (timestamp) record.timestamp = timestamp;
	return record;
}
