import type { CustomRecord, RecordInput, StoredRecord } from "@agent/session-format/reading";
import type { UIMessage } from "ai";

/**
 * How a chat lies in a session log. Each UIMessage is a group of records on the path: the message
 * records it maps to (what the CLI, the page, search, export and compaction read), then one
 * `custom` record holding the UIMessage verbatim, which closes the group. A later version of the
 * same message (a continued reply) that keeps the group's records as they are adds its further
 * records and a new closing record after them; any other change starts a branch.
 */
export const UI_MESSAGE_TYPE = "ai-sdk:ui-message";

/** The active stream of a chat (resumable streams): a `custom` record; the latest one in the log wins. */
export const ACTIVE_STREAM_TYPE = "ai-sdk:active-stream";

/** What the closing record of a message group holds. */
export interface UIMessageData {
	/** The layout of the group (how the message was mapped); 1 is this one. */
	v: 1;
	/** The UIMessage as it was saved, verbatim. */
	message: UIMessage;
	/** The reply was cut short: its stream was aborted. */
	aborted?: true;
	/** The reply's stream failed with this error. */
	error?: string;
}

export interface ActiveStreamData {
	streamId: string | null;
}

export function uiMessageData(record: StoredRecord): UIMessageData | undefined {
	if (record.recordType !== "custom" || record.customType !== UI_MESSAGE_TYPE) return undefined;
	const data = record.data as Partial<UIMessageData> | undefined;
	const message = data?.message as Partial<UIMessage> | undefined;
	if (typeof message !== "object" || message === null || typeof message.id !== "string") return undefined;
	if (!Array.isArray(message.parts)) return undefined;
	return data as UIMessageData;
}

export function activeStreamOf(record: StoredRecord): string | null | undefined {
	if (record.recordType !== "custom" || record.customType !== ACTIVE_STREAM_TYPE) return undefined;
	const streamId = (record.data as Partial<ActiveStreamData> | undefined)?.streamId;
	return typeof streamId === "string" ? streamId : null;
}

export function uiMessageRecord(data: UIMessageData): RecordInput {
	return { recordType: "custom", customType: UI_MESSAGE_TYPE, data } satisfies Omit<
		CustomRecord,
		"seq" | "schemaVersion" | "timestamp"
	>;
}

export function activeStreamRecord(streamId: string | null): RecordInput {
	return { recordType: "custom", customType: ACTIVE_STREAM_TYPE, data: { streamId } satisfies ActiveStreamData };
}
