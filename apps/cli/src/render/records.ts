import { type ContentBlock, parentSeqOf, type StoredRecord } from "@agent/session-format/reading";
import type { Paint } from "../io/colors.js";
import { firstLine, indent, shortTime } from "./format.js";

/** What kind of record this is, as one word or two: "user", "assistant", "compaction", "label"... */
export function recordKind(record: StoredRecord): string {
	if (record.recordType === "message") return record.role;
	if (record.recordType === "opaque") return `opaque(${record.declaredType})`;
	return record.recordType;
}

/** The gist of a record on one line, without its seq. */
export function recordGist(record: StoredRecord, max = 80): string {
	switch (record.recordType) {
		case "message":
			return firstLine(contentGist(record.content), max);
		case "compaction":
			return `kept from #${record.firstKeptSeq}, ${record.tokensBefore} tokens summarized`;
		case "model_change":
			return `${record.provider}/${record.modelId}`;
		case "thinking_level_change":
			return record.thinkingLevel;
		case "session_info":
			return record.name === undefined ? "(no name)" : JSON.stringify(record.name);
		case "label":
			return record.label ? `#${record.targetSeq} ${JSON.stringify(record.label)}` : `#${record.targetSeq} (cleared)`;
		case "branch_summary":
			return `from #${record.fromSeq}: ${firstLine(record.summary, max)}`;
		case "custom":
			return record.customType;
		case "custom_message":
			return `${record.customType}: ${firstLine(contentGist(record.content), max)}`;
		case "leaf_change":
			return record.parentSeq === null
				? "the next message starts a new root"
				: `active leaf moved to #${parentSeqOf(record)}`;
		case "archive_change":
			return record.archived ? "archived" : "unarchived";
		case "uptime":
			return `+${record.seconds}s active`;
		case "turn":
			return `${record.turnId} ${record.outcome} in ${(record.durationMs / 1000).toFixed(1)}s${record.error ? `: ${firstLine(record.error.message, max)}` : ""}`;
		case "damage_ack":
			return `line ${record.line} (byte ${record.byteOffset}) acknowledged damaged: ${firstLine(record.reason, max)}`;
		case "opaque":
			return record.reason;
	}
}

/** A record shown in full: a header line, then its content indented. */
export function renderRecord(record: StoredRecord, paint: Paint): string {
	const header = [
		paint("bold", `#${record.seq}`),
		paint(kindStyle(record), recordKind(record)),
		...headerDetails(record).map((detail) => paint("gray", detail)),
		paint("dim", shortTime(record.timestamp)),
	].join("  ");
	const body = recordBody(record);
	return body ? `${header}\n${indent(body)}` : header;
}

function headerDetails(record: StoredRecord): string[] {
	const details: string[] = [];
	const parent = parentSeqOf(record);
	if (record.parentSeq !== undefined) details.push(parent === null ? "(new root)" : `(parent #${parent})`);
	if (record.recordType === "message") {
		if (record.role === "assistant" && record.provider && record.model)
			details.push(`${record.provider}/${record.model}`);
		if (record.role === "toolResult") {
			details.push(`${record.toolName ?? "tool"} ${record.toolCallId ?? ""}`.trim());
			if (record.isError) details.push("error");
		}
		if (record.stopReason === "error" || record.stopReason === "aborted") details.push(record.stopReason);
	}
	return details;
}

function recordBody(record: StoredRecord): string {
	switch (record.recordType) {
		case "message": {
			const text = contentFull(record.content);
			return record.errorMessage ? `${text}\n(error: ${record.errorMessage})`.trim() : text;
		}
		case "custom_message":
			return `[${record.customType}]\n${contentFull(record.content)}`;
		case "compaction": {
			const files = [
				record.readFiles.length > 0 ? `read: ${record.readFiles.join(", ")}` : "",
				record.modifiedFiles.length > 0 ? `modified: ${record.modifiedFiles.join(", ")}` : "",
			].filter(Boolean);
			return [
				`firstKeptSeq ${record.firstKeptSeq}, tokensBefore ${record.tokensBefore}`,
				...files,
				"",
				record.summary,
			].join("\n");
		}
		case "branch_summary":
			return `from #${record.fromSeq}\n${record.summary}`;
		case "custom":
			return `${record.customType}${record.data === undefined ? "" : ` ${JSON.stringify(record.data)}`}`;
		case "opaque":
			return `${record.reason}\n${JSON.stringify(record.original)}`;
		default:
			return recordGist(record, 200);
	}
}

function kindStyle(record: StoredRecord): "cyan" | "green" | "yellow" | "magenta" | "blue" | "gray" | "red" {
	if (record.recordType === "message") {
		if (record.role === "user") return "cyan";
		if (record.role === "assistant") return "green";
		return record.isError ? "red" : "yellow";
	}
	if (record.recordType === "compaction" || record.recordType === "branch_summary") return "magenta";
	if (record.recordType === "label" || record.recordType === "session_info") return "blue";
	if (record.recordType === "opaque") return "red";
	return "gray";
}

/** Content as one line of text: text, then tool calls and other blocks in brackets. */
export function contentGist(content: readonly ContentBlock[]): string {
	const parts: string[] = [];
	for (const block of content) {
		if (block.type === "text") parts.push(block.text);
		else if (block.type === "toolCall") parts.push(`[${block.name}(${JSON.stringify(block.arguments)})]`);
		else if (block.type === "image") parts.push(`[image ${block.mimeType}]`);
	}
	if (parts.length === 0 && content.some((block) => block.type === "thinking")) return "[thinking]";
	return parts.join(" ").replace(/\s+/g, " ");
}

/** Content in full: text as is, thinking marked, tool calls as name(arguments). */
export function contentFull(content: readonly ContentBlock[]): string {
	const parts: string[] = [];
	for (const block of content) {
		if (block.type === "text") parts.push(block.text);
		else if (block.type === "thinking") parts.push(`(thinking) ${block.redacted ? "[redacted]" : block.thinking}`);
		else if (block.type === "toolCall") parts.push(`→ ${block.name}(${JSON.stringify(block.arguments)}) [${block.id}]`);
		else parts.push(`[image ${block.mimeType}, ${block.data.length} base64 chars]`);
	}
	return parts.join("\n");
}
