import type { ContentBlock, StoredRecord } from "@agent/session-format";

/** One thing a transcript shows, whatever the output format. */
export type TranscriptItem =
	| {
			kind: "message";
			role: "user" | "assistant" | "toolResult";
			seq: number;
			timestamp: string;
			blocks: ContentBlock[];
			label: string;
			isError?: boolean;
	  }
	| { kind: "summary"; seq: number; timestamp: string; title: string; summary: string; files?: string[] }
	| { kind: "custom_message"; seq: number; timestamp: string; customType: string; blocks: ContentBlock[] }
	| { kind: "note"; seq: number; timestamp: string; text: string };

/** Reasoning kept only encrypted (a signature, no text) is shown as hidden, not as an empty "Thinking" block. */
function hiddenThinking(block: ContentBlock): ContentBlock {
	return block.type === "thinking" && block.thinking.trim() === "" && !block.redacted
		? { ...block, redacted: true }
		: block;
}

/** A record as a transcript item; undefined for custom records (extension state, imported lines kept as data). */
export function transcriptItem(record: StoredRecord): TranscriptItem | undefined {
	const { seq, timestamp } = record;
	switch (record.recordType) {
		case "message": {
			if (record.role === "user")
				return { kind: "message", role: "user", seq, timestamp, blocks: record.content, label: "User" };
			if (record.role === "assistant") {
				const model = record.model ? ` (${record.provider ? `${record.provider}/` : ""}${record.model})` : "";
				const error = record.stopReason === "error" && record.errorMessage ? ` — error: ${record.errorMessage}` : "";
				return {
					kind: "message",
					role: "assistant",
					seq,
					timestamp,
					blocks: record.content.map(hiddenThinking),
					label: `Assistant${model}${error}`,
				};
			}
			const item: TranscriptItem = {
				kind: "message",
				role: "toolResult",
				seq,
				timestamp,
				blocks: record.content,
				label: `Tool result${record.toolName ? `: ${record.toolName}` : ""}${record.isError ? " (error)" : ""}`,
			};
			if (record.isError) item.isError = true;
			return item;
		}
		case "compaction": {
			const files = [...record.readFiles.map((f) => `read ${f}`), ...record.modifiedFiles.map((f) => `modified ${f}`)];
			return {
				kind: "summary",
				seq,
				timestamp,
				title: `Compaction (${record.tokensBefore} tokens before; kept from #${record.firstKeptSeq})`,
				summary: record.summary,
				files,
			};
		}
		case "branch_summary":
			return {
				kind: "summary",
				seq,
				timestamp,
				title: `Branch summary (from #${record.fromSeq})`,
				summary: record.summary,
			};
		case "custom_message":
			return { kind: "custom_message", seq, timestamp, customType: record.customType, blocks: record.content };
		case "model_change":
			return { kind: "note", seq, timestamp, text: `Model: ${record.provider}/${record.modelId}` };
		case "thinking_level_change":
			return { kind: "note", seq, timestamp, text: `Thinking level: ${record.thinkingLevel}` };
		case "session_info":
			return { kind: "note", seq, timestamp, text: record.name ? `Named: ${record.name}` : "Name cleared" };
		case "label":
			return {
				kind: "note",
				seq,
				timestamp,
				text: record.label
					? `Label "${record.label}" on #${record.targetSeq}`
					: `Label cleared on #${record.targetSeq}`,
			};
		case "custom":
			return undefined;
		case "opaque":
			return { kind: "note", seq, timestamp, text: `Unread record (${record.declaredType}): ${record.reason}` };
	}
}

/** The size of base64 data, for image placeholders. */
export function base64Bytes(data: string): number {
	const clean = data.replace(/\s/g, "");
	const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
	return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** Text for the session header: title and the facts worth showing. */
export function headerFacts(info: {
	id: string;
	createdAt: string;
	name?: string | undefined;
	model?: string | undefined;
	importedFrom?: { format: string; sourceId: string } | undefined;
}): { title: string; facts: Array<[string, string]> } {
	const facts: Array<[string, string]> = [
		["Session", info.id],
		["Created", info.createdAt],
	];
	if (info.model) facts.push(["Model", info.model]);
	if (info.importedFrom) facts.push(["Imported from", `${info.importedFrom.format} ${info.importedFrom.sourceId}`]);
	return { title: info.name || `Session ${info.id}`, facts };
}

/** The closing note of a transcript: what it leaves out. */
export function hiddenNote(otherBranches: number, custom: number): string | undefined {
	const parts: string[] = [];
	if (otherBranches > 0) parts.push(`${otherBranches} record${otherBranches === 1 ? "" : "s"} on other branches`);
	if (custom > 0)
		parts.push(`${custom} custom record${custom === 1 ? "" : "s"} (extension data, source lines kept as data)`);
	return parts.length > 0 ? `Not shown: ${parts.join("; ")}.` : undefined;
}
