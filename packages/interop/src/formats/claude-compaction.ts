import { compactionSummaryText, type RecordInput } from "@agent/session-format";
import { isObject } from "../json-lines.js";
import type { RecordList } from "../record-list.js";
import type { Warnings } from "../warnings.js";
import { claudeUserContent } from "./claude-content.js";

/** What the compactions need of the state that reads the file. */
export interface ChainAccess {
	seqOf(uuid: string): number | undefined;
	attachTo(seq: number): number;
	/** Makes later lines that name `uuid` as their parent continue below `seq`. */
	remap(uuid: string, seq: number): void;
}

interface Line {
	line: number;
	value: Record<string, unknown>;
}

interface OpenBoundary {
	line: Line;
	seq: number;
	/** The first record Claude Code keeps from before the compaction (its preserved segment), when it kept any. */
	headSeq?: number;
	tailUuid?: string;
}

const [SUMMARY_PREFIX = "", SUMMARY_SUFFIX = ""] = compactionSummaryText("\u0000").split("\u0000");

/**
 * Claude Code's compactions: a `compact_boundary` system line, then (maybe after attachments
 * re-read for the new context) the `isCompactSummary` user line. The boundary is kept as a
 * custom record where the conversation it ends hangs (its logicalParentUuid, or the last message
 * of its preserved segment); the summary becomes our compaction record, which keeps what Claude
 * Code keeps: the preserved messages (compactMetadata.preservedMessages, or preservedSegment head to
 * tail, which Claude Code relinks after the summary) and the lines between the boundary and the summary.
 */
export class ClaudeCompactions {
	private open: OpenBoundary | undefined;

	constructor(
		private readonly list: RecordList,
		private readonly warnings: Warnings,
		private readonly chain: ChainAccess,
	) {}

	/** A compact_boundary line; returns its record's seq. */
	boundary(entry: Line, parent: number, tip: number): number {
		this.closeUnanswered();
		const { value, line } = entry;
		const meta = isObject(value.compactMetadata) ? value.compactMetadata : {};
		const segment = preserved(meta);
		const head = uuidSeq(this.chain, segment?.headUuid);
		const tail = uuidSeq(this.chain, segment?.tailUuid);
		const logical = uuidSeq(this.chain, value.logicalParentUuid);
		const named = typeof value.parentUuid === "string" ? parent : undefined;
		const at =
			head !== undefined && tail !== undefined
				? this.chain.attachTo(tail)
				: logical !== undefined
					? this.chain.attachTo(logical)
					: (named ?? tip);
		const record: RecordInput = { recordType: "custom", customType: "claude:compact_boundary", data: value };
		if (typeof value.timestamp === "string") record.timestamp = value.timestamp;
		const seq = this.list.add(record, at, line);
		this.open = { line: entry, seq };
		if (head !== undefined && tail !== undefined) {
			this.open.headSeq = head;
			this.open.tailUuid = segment?.tailUuid as string;
		}
		return seq;
	}

	/** The isCompactSummary user line: our compaction record. Returns its seq. */
	summary(
		entry: Line,
		parent: number,
		stamp: (record: RecordInput, value: Record<string, unknown>) => RecordInput,
	): number {
		const { value, line } = entry;
		const open = this.open;
		this.open = undefined;
		const message = isObject(value.message) ? value.message : {};
		const text = claudeUserContent(message.content)
			.blocks.map((block) => (block.type === "text" ? block.text : ""))
			.join("\n");
		const record: RecordInput = {
			recordType: "compaction",
			summary: unwrapOurSummary(text),
			firstKeptSeq: this.list.nextSeq,
			tokensBefore: 0,
			readFiles: [],
			modifiedFiles: [],
		};
		let at = parent;
		if (open) {
			// Kept: the preserved segment, else whatever came between the boundary and this line.
			if (open.headSeq !== undefined) record.firstKeptSeq = open.headSeq;
			else if (open.seq + 1 < this.list.nextSeq) record.firstKeptSeq = open.seq + 1;
			if (!this.list.isAncestor(open.seq, parent)) at = this.chain.attachTo(open.seq);
			const meta = isObject(open.line.value.compactMetadata) ? open.line.value.compactMetadata : {};
			if (typeof meta.preTokens === "number") record.tokensBefore = Math.max(0, Math.round(meta.preTokens));
			if (meta.trigger === "manual") record.trigger = "manual";
			else if (meta.trigger === "auto") record.trigger = "threshold";
		}
		const seq = this.list.add(stamp(record, value), at, line);
		// Claude Code continues after a compaction below the preserved segment's last message.
		if (open?.tailUuid !== undefined) this.chain.remap(open.tailUuid, seq);
		return seq;
	}

	finish(): void {
		this.closeUnanswered();
	}

	private closeUnanswered(): void {
		if (!this.open) return;
		this.warnings.add(
			"a compact_boundary without the summary message after it; kept as a custom record (claude:compact_boundary), not sent to the LLM",
			this.open.line.line,
		);
		this.open = undefined;
	}
}

/**
 * The first and last message Claude Code kept from before a compaction: `preservedMessages`
 * (newer, the kept uuids in order, relinked one after another) or `preservedSegment` (head to tail).
 */
function preserved(meta: Record<string, unknown>): { headUuid?: unknown; tailUuid?: unknown } | undefined {
	const messages = isObject(meta.preservedMessages) ? meta.preservedMessages : undefined;
	if (messages && Array.isArray(messages.uuids) && messages.uuids.length > 0) {
		return { headUuid: messages.uuids[0], tailUuid: messages.uuids.at(-1) };
	}
	return isObject(meta.preservedSegment) ? meta.preservedSegment : undefined;
}

function uuidSeq(chain: ChainAccess, uuid: unknown): number | undefined {
	return typeof uuid === "string" ? chain.seqOf(uuid) : undefined;
}

/**
 * The summary text without our own wording around it: an export to Claude Code writes the
 * summary as our context shows it (so Claude sends the model the same text), and importing that
 * file back must give the summary, not the summary wrapped twice.
 */
export function unwrapOurSummary(text: string): string {
	if (
		text.length >= SUMMARY_PREFIX.length + SUMMARY_SUFFIX.length &&
		text.startsWith(SUMMARY_PREFIX) &&
		text.endsWith(SUMMARY_SUFFIX)
	) {
		return text.slice(SUMMARY_PREFIX.length, text.length - SUMMARY_SUFFIX.length);
	}
	return text;
}
