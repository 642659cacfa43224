import { type ContentBlock, estimateContentTokens, type RecordInput } from "@agent/session-format";
import { text } from "../content.js";
import { invalidSource, sourceLabel } from "../errors.js";
import { isObject, numberField, parseJsonLines, stringField } from "../json-lines.js";
import { RecordList } from "../record-list.js";
import type { ConvertedSession, ConvertOptions } from "../types.js";
import { Warnings } from "../warnings.js";

/**
 * Converts a fern session (`sessions/<channel>_<user>/session.jsonl`, with the `metadata.json`
 * beside it passed as `options.metadata`). Messages map one to one; consecutive tool_call
 * events join the assistant message before them; a compaction event archives the oldest
 * `archivedCount` conversation events of the live context (messages, tool calls, tool
 * results): our compaction keeps the rest. System events are kept as custom records.
 */
export function convertFern(lines: readonly string[], options: ConvertOptions = {}): ConvertedSession {
	const warnings = new Warnings();
	const metadata = isObject(options.metadata) ? options.metadata : undefined;
	const key = stringField(metadata ?? {}, "key") ?? directoryName(options.sourcePath);
	const list = new RecordList(warnings);
	const events = parseJsonLines(lines, warnings);
	const firstTime = events
		.map(({ value }) => (isObject(value) ? stringField(value, "timestamp") : undefined))
		.find(Boolean);
	list.custom("fern:session", { key, metadata }, null, stringField(metadata ?? {}, "createdAt") ?? firstTime);
	const toolNames = new Map<string, string>();
	/** The seq of each conversation event in the live context, oldest first (tool calls share their message's seq). */
	let live: number[] = [];
	let openAssistant = 0;
	for (const { line, value } of events) {
		if (!isObject(value)) {
			warnings.add("a line that is not a JSON object; kept as a custom record (fern:line)", line);
			list.custom("fern:line", value);
			openAssistant = 0;
			continue;
		}
		const timestamp = stringField(value, "timestamp");
		const type = value.type;
		if (
			type === "message" &&
			(value.role === "user" || value.role === "assistant") &&
			typeof value.content === "string"
		) {
			const seq = list.add(
				stamp({ recordType: "message", role: value.role, content: [text(value.content)] }, timestamp),
				undefined,
				line,
			);
			live.push(seq);
			openAssistant = value.role === "assistant" ? seq : 0;
		} else if (type === "tool_call" && typeof value.toolCallId === "string" && typeof value.toolName === "string") {
			toolNames.set(value.toolCallId, value.toolName);
			const args = isObject(value.args) ? value.args : { input: value.args };
			const call: ContentBlock = { type: "toolCall", id: value.toolCallId, name: value.toolName, arguments: args };
			const open = openAssistant ? list.get(openAssistant) : undefined;
			if (open?.recordType === "message") {
				open.content.push(call);
				open.stopReason = "toolUse";
				live.push(openAssistant);
			} else {
				openAssistant = list.add(
					stamp({ recordType: "message", role: "assistant", content: [call], stopReason: "toolUse" }, timestamp),
					undefined,
					line,
				);
				live.push(openAssistant);
			}
		} else if (type === "tool_result" && typeof value.toolCallId === "string") {
			const record: RecordInput = {
				recordType: "message",
				role: "toolResult",
				toolCallId: value.toolCallId,
				content: [text(typeof value.result === "string" ? value.result : JSON.stringify(value.result ?? null))],
				isError: value.isError === true,
			};
			const name = toolNames.get(value.toolCallId) ?? stringField(value, "toolName");
			if (name) record.toolName = name;
			live.push(list.add(stamp(record, timestamp), undefined, line));
			openAssistant = 0;
		} else if (type === "compaction" && typeof value.summary === "string") {
			live = compaction(value, line, list, live, warnings);
			openAssistant = 0;
		} else {
			const customType = `fern:${String(type)}`;
			warnings.add(
				`a ${JSON.stringify(type)} event has no equivalent; kept as a custom record (${customType}), not sent to the LLM`,
				line,
			);
			list.custom(customType, value, undefined, timestamp);
			openAssistant = 0;
		}
	}
	const sourceId = stringField(metadata ?? {}, "id") ?? key;
	if (!sourceId) {
		throw invalidSource(
			sourceLabel(options.sourcePath),
			"has no metadata.json id and no session directory name to key the import by",
			"Import the session directory (sessions/<channel>_<user>/) or the session.jsonl inside it",
		);
	}
	const result: ConvertedSession = { format: "fern", sourceId, records: list.records, warnings: warnings.list() };
	const createdAt = stringField(metadata ?? {}, "createdAt") ?? firstTime;
	if (createdAt) result.createdAt = createdAt;
	if (key) result.identityKey = key;
	return result;
}

/** Appends the compaction and returns the new live context (the events it keeps). */
function compaction(
	value: Record<string, unknown>,
	line: number,
	list: RecordList,
	live: number[],
	warnings: Warnings,
): number[] {
	let archived = numberField(value, "archivedCount");
	if (archived === undefined) {
		warnings.add("a compaction without archivedCount; everything before it is treated as archived", line);
		archived = live.length;
	}
	archived = Math.max(0, Math.min(Math.floor(archived), live.length));
	const seq = list.nextSeq;
	const kept = live.slice(archived);
	let tokensBefore = 0;
	for (const liveSeq of new Set(live)) {
		const record = list.get(liveSeq);
		if (record && "content" in record) tokensBefore += estimateContentTokens(record.content);
	}
	const record: RecordInput = {
		recordType: "compaction",
		summary: value.summary as string,
		firstKeptSeq: kept[0] ?? seq,
		tokensBefore,
		readFiles: [],
		modifiedFiles: [],
	};
	list.add(stamp(record, stringField(value, "timestamp")), undefined, line);
	return kept;
}

/** The session directory's name (fern's session key) for a path ending in <key>/session.jsonl. */
function directoryName(sourcePath: string | undefined): string | undefined {
	const parts = sourcePath?.split(/[\\/]/) ?? [];
	return parts.length >= 2 && parts[parts.length - 1] === "session.jsonl" ? parts[parts.length - 2] : undefined;
}

function stamp(record: RecordInput, timestamp: string | undefined): RecordInput {
	if (timestamp) record.timestamp = timestamp;
	return record;
}
