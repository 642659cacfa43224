import type { MessageRecord, RecordInput } from "@agent/session-format/reading";
import type { UIMessage } from "ai";
import type { ChatEntry, ChatPath } from "./chat-log.js";
import { type UIMessageData, uiMessageRecord } from "./chat-records.js";
import { type MappedMessage, type MessageInput, mapUIMessage, type ReplyNotes } from "./map-message.js";
import { sameJson } from "./same-json.js";

/** The records one saveChat appends, in one batch. */
export interface SavePlan {
	records: RecordInput[];
	/** For each record, the index of the message it comes from (-1: none). */
	owners: number[];
	/** The active path no longer continues from where it ended: a branch or a leaf move. */
	branched: boolean;
}

/**
 * What saving `messages` as the chat's messages appends, given the chat's path as stored:
 * - the messages the path already holds, unchanged and in place, are not written again;
 * - the first message that differs from the stored one at its place (a new id: a regenerated
 *   reply; the same id with other content: an edited message) is written as a branch from the
 *   stored one's parent, and every message after it follows it. The stored ones stay in the log.
 *   A later version of a message whose records it only extends (a reply that went on: tool
 *   results, further steps) continues its group instead;
 * - fewer messages than the path holds move the active leaf back (a leaf_change); nothing is
 *   deleted.
 * Saving what is stored plans nothing.
 */
export function planSave(
	chat: ChatPath,
	messages: readonly UIMessage[],
	notes: ReadonlyMap<string, ReplyNotes> = new Map(),
): SavePlan {
	const { entries } = chat;
	let kept = 0;
	while (
		kept < entries.length &&
		kept < messages.length &&
		sameJson(entry(entries, kept).data.message, messages[kept])
	) {
		kept++;
	}
	const plan: SavePlan = { records: [], owners: [], branched: false };
	if (kept === messages.length) {
		if (kept < entries.length) {
			plan.records.push({ recordType: "leaf_change", parentSeq: entry(entries, kept).parentSeq });
			plan.owners.push(-1);
			plan.branched = true;
		}
		return plan;
	}

	const first = messages[kept] as UIMessage;
	let mapped = mapUIMessage(first, notes.get(first.id));
	const stored = entries[kept];
	let parent = chat.appendParent;
	if (stored !== undefined) {
		if (stored.data.message.id === first.id && extendsRecords(stored.records, mapped.records)) {
			// The same message, gone on: only what it added is written, after its latest version.
			mapped = { records: mapped.records.slice(stored.records.length), partStarts: [] };
			if (kept < entries.length - 1) parent = stored.seq;
		} else {
			parent = stored.parentSeq;
		}
	}
	plan.branched = parent !== chat.appendParent;

	for (let index = kept; index < messages.length; index++) {
		const message = messages[index] as UIMessage;
		const group = index === kept ? mapped : mapUIMessage(message, notes.get(message.id));
		for (const record of group.records) {
			plan.records.push(record);
			plan.owners.push(index);
		}
		plan.records.push(uiMessageRecord(closingData(message, notes.get(message.id))));
		plan.owners.push(index);
	}
	// The first record names its parent: the leaf may be elsewhere (a branch, or an unfinished save).
	(plan.records[0] as RecordInput).parentSeq = parent;
	return plan;
}

function entry(entries: readonly ChatEntry[], index: number): ChatEntry {
	return entries[index] as ChatEntry;
}

function closingData(message: UIMessage, notes: ReplyNotes | undefined): UIMessageData {
	const data: UIMessageData = { v: 1, message };
	if (notes?.stop === "aborted") data.aborted = true;
	if (notes?.stop === "error") data.error = notes.errorMessage ?? "the stream failed";
	return data;
}

/**
 * True when the stored records of a message are the first records of its new mapping: compared
 * by what they say (role, content, tool call and outcome), not by the model that wrote them.
 */
function extendsRecords(stored: readonly MessageRecord[], next: MappedMessage["records"]): boolean {
	if (stored.length > next.length) return false;
	return stored.every((record, i) => sameJson(said(record), said(next[i] as MessageInput)));
}

function said(record: MessageRecord | MessageInput) {
	return {
		role: record.role,
		content: record.content,
		toolCallId: record.toolCallId,
		toolName: record.toolName,
		isError: record.isError,
		stopReason: record.stopReason,
		errorMessage: record.errorMessage,
	};
}
