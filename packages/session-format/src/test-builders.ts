/** Small record builders for tests: every record gets seq, schemaVersion 1 and a timestamp from its seq. */
import type { ContentBlock } from "./content.js";
import type {
	BranchSummaryRecord,
	CompactionRecord,
	CustomMessageRecord,
	CustomRecord,
	LabelRecord,
	MessageRecord,
	ModelChangeRecord,
	SessionInfoRecord,
	ThinkingLevelChangeRecord,
} from "./records.js";

type Tree = { parentSeq?: number | null };

export function at(seq: number): string {
	return new Date(Date.UTC(2025, 1, 11, 10, 0, seq)).toISOString();
}

function base(seq: number, tree: Tree) {
	return { schemaVersion: 1, seq, timestamp: at(seq), ...tree };
}

export function user(seq: number, text: string, tree: Tree = {}): MessageRecord {
	return { recordType: "message", ...base(seq, tree), role: "user", content: [{ type: "text", text }] };
}

export function assistant(
	seq: number,
	text: string,
	options: Tree & { toolCalls?: string[]; provider?: string; model?: string } = {},
): MessageRecord {
	const { toolCalls = [], provider, model, ...tree } = options;
	const content: ContentBlock[] = [{ type: "text", text }];
	for (const id of toolCalls)
		content.push({ type: "toolCall", id, name: "bash", arguments: { command: `echo ${id}` } });
	const record: MessageRecord = { recordType: "message", ...base(seq, tree), role: "assistant", content };
	if (provider !== undefined) record.provider = provider;
	if (model !== undefined) record.model = model;
	return record;
}

export function toolResult(seq: number, toolCallId: string, text: string, tree: Tree = {}): MessageRecord {
	return {
		recordType: "message",
		...base(seq, tree),
		role: "toolResult",
		content: [{ type: "text", text }],
		toolCallId,
		toolName: "bash",
		isError: false,
	};
}

export function compaction(seq: number, firstKeptSeq: number, summary: string, tree: Tree = {}): CompactionRecord {
	return {
		recordType: "compaction",
		...base(seq, tree),
		firstKeptSeq,
		summary,
		tokensBefore: 1000,
		readFiles: [],
		modifiedFiles: [],
	};
}

export function label(seq: number, targetSeq: number, text: string | undefined, tree: Tree = {}): LabelRecord {
	const record: LabelRecord = { recordType: "label", ...base(seq, tree), targetSeq };
	if (text !== undefined) record.label = text;
	return record;
}

export function modelChange(seq: number, provider: string, modelId: string, tree: Tree = {}): ModelChangeRecord {
	return { recordType: "model_change", ...base(seq, tree), provider, modelId };
}

export function thinkingLevel(seq: number, level: string, tree: Tree = {}): ThinkingLevelChangeRecord {
	return { recordType: "thinking_level_change", ...base(seq, tree), thinkingLevel: level };
}

export function sessionInfo(seq: number, name: string, tree: Tree = {}): SessionInfoRecord {
	return { recordType: "session_info", ...base(seq, tree), name };
}

export function branchSummary(seq: number, fromSeq: number, summary: string, tree: Tree = {}): BranchSummaryRecord {
	return { recordType: "branch_summary", ...base(seq, tree), fromSeq, summary };
}

export function custom(seq: number, customType: string, data: unknown, tree: Tree = {}): CustomRecord {
	return { recordType: "custom", ...base(seq, tree), customType, data };
}

export function customMessage(seq: number, customType: string, text: string, tree: Tree = {}): CustomMessageRecord {
	return {
		recordType: "custom_message",
		...base(seq, tree),
		customType,
		content: [{ type: "text", text }],
		display: true,
	};
}

/** The text of every text block of a context message, joined. */
export function textOf(message: { content: ContentBlock[] }): string {
	return message.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("|");
}
