import { type MessageRecord, type SessionStore, SessionTree, type StoredRecord } from "@agent/session-format/reading";
import { activeStreamOf, type UIMessageData, uiMessageData } from "./chat-records.js";

/** One UIMessage on a chat's path: its latest version and the records of its group. */
export interface ChatEntry {
	data: UIMessageData;
	/** The seq of the record that holds the latest version. */
	seq: number;
	/** The record the group's first record hangs from (null: a root): where a replacement branches off. */
	parentSeq: number | null;
	/** The message records of the group, as stored (every version's, in order). */
	records: MessageRecord[];
}

export interface ChatPath {
	entries: ChatEntry[];
	/**
	 * Where the next message continues from: the active leaf, or, when the path ends in message
	 * records that no UIMessage closes (a save that never completed), the record before them.
	 */
	appendParent: number | null;
}

/**
 * The UIMessages along a path (root to leaf, as SessionTree.path gives it). Message records that
 * no UIMessage record closes in the middle of the path (written by something else) are counted in
 * the group that follows them; records of other types are passed over.
 */
export function chatPathOf(path: readonly StoredRecord[]): ChatPath {
	const entries: ChatEntry[] = [];
	let pending: MessageRecord[] = [];
	let pendingParent: number | null = null;
	let previous: number | null = null;
	for (const record of path) {
		const data = uiMessageData(record);
		if (data) {
			const last = entries.at(-1);
			if (last && last.data.message.id === data.message.id) {
				// A later version of the same message, continuing its group.
				last.data = data;
				last.seq = record.seq;
				last.records.push(...pending);
			} else {
				const parentSeq = pending.length > 0 ? pendingParent : previous;
				entries.push({ data, seq: record.seq, parentSeq, records: pending });
			}
			pending = [];
		} else if (record.recordType === "message") {
			if (pending.length === 0) pendingParent = previous;
			pending.push(record);
		}
		previous = record.seq;
	}
	return { entries, appendParent: pending.length > 0 ? pendingParent : previous };
}

export interface ChatLog extends ChatPath {
	/** The latest active stream id set in the log (any branch); null when none or cleared. */
	activeStreamId: string | null;
	/** The log's last seq (0: empty). */
	lastSeq: number;
}

/** Reads a chat's whole log: the UIMessages on its active path, and its active stream. */
export async function readChatLog(store: SessionStore, chatId: string): Promise<ChatLog> {
	const tree = new SessionTree();
	let activeStreamId: string | null = null;
	for await (const record of store.read(chatId)) {
		tree.add(record);
		const streamId = activeStreamOf(record);
		if (streamId !== undefined) activeStreamId = streamId;
	}
	const leaf = tree.activeLeaf();
	return { ...chatPathOf(leaf === null ? [] : tree.path(leaf)), activeStreamId, lastSeq: tree.lastSeq };
}

/** The latest active stream id of a chat, read from the end of its log. */
export async function latestActiveStream(store: SessionStore, chatId: string): Promise<string | null> {
	// Set when a reply starts and cleared when it ends, so it is near the end: read backwards,
	// four times further each round, rather than the whole log.
	for (let count = 32; ; count *= 4) {
		const records = await store.tail(chatId, count);
		for (let i = records.length - 1; i >= 0; i--) {
			const streamId = activeStreamOf(records[i] as StoredRecord);
			if (streamId !== undefined) return streamId;
		}
		if (records.length < count) return null;
	}
}
