import {
	type CompactionRecord,
	type ContextMessage,
	compactionSummaryText,
	contextMessageOf,
	type RecordInput,
	type StoredRecord,
	textBlock,
} from "@agent/session-format/reading";
import type { AgentInputItem } from "@openai/agents-core";
import { isItemsRecord, itemRecords, itemsOf } from "./item-records.js";
import { itemsOfMessage } from "./message-items.js";

/** Items that stand or fall together: one record's, or one message's and the items record after it. */
export interface ItemGroup {
	items: AgentInputItem[];
	/** The record before the group's first on the path (null: the group starts a root): where the leaf goes to drop it. */
	parentSeq: number | null;
	/**
	 * Whether moving the leaf to parentSeq drops exactly this group and those after it: not for a
	 * compaction's summary, nor for what the compaction kept from before itself.
	 */
	movable: boolean;
}

/** The session's items as the SDK sees them: along the leaf's path, from the latest compaction on. */
export interface History {
	groups: ItemGroup[];
	items: AgentInputItem[];
}

/**
 * The items of a path (as `store.open` gives it: from the latest compaction's firstKeptSeq to the
 * leaf), in the order the context has its messages: the compaction's summary first, then what it
 * kept, then what came after. A message kept with its items gives those items, verbatim; one
 * written without them (by the runtime, an import, a hand) gives the items it stands for.
 */
export function historyOf(path: readonly StoredRecord[]): History {
	const groups: ItemGroup[] = [];
	let compactionIndex = -1;
	for (let i = path.length - 1; i >= 0; i--) {
		if ((path[i] as StoredRecord).recordType === "compaction") {
			compactionIndex = i;
			break;
		}
	}
	let order: number[] = path.map((_, i) => i);
	if (compactionIndex >= 0) {
		const compaction = path[compactionIndex] as CompactionRecord;
		const next = path[compactionIndex + 1];
		// The SDK's own compaction item (right after the record) stands for the summary; else the summary does.
		if (!(isItemsRecord(next) && next.data.kind === "summary")) {
			groups.push({ items: itemsOfMessage(summaryMessage(compaction)), parentSeq: null, movable: false });
		}
		const kept = order.filter((i) => i < compactionIndex && (path[i] as StoredRecord).seq >= compaction.firstKeptSeq);
		order = [...kept, ...order.filter((i) => i > compactionIndex)];
	}
	for (let k = 0; k < order.length; k++) {
		const i = order[k] as number;
		const record = path[i] as StoredRecord;
		const group = (items: AgentInputItem[]) =>
			groups.push({
				items,
				parentSeq: i > 0 ? (path[i - 1] as StoredRecord).seq : null,
				movable: compactionIndex < 0 || i > compactionIndex,
			});
		if (isItemsRecord(record)) {
			group(itemsOf(record));
			continue;
		}
		const message = contextMessageOf(record);
		if (!message) continue;
		const next = path[i + 1];
		if (
			record.recordType === "message" &&
			order[k + 1] === i + 1 &&
			isItemsRecord(next) &&
			next.data.kind === "message"
		) {
			group(itemsOf(next));
			k++;
		} else {
			group(itemsOfMessage(message));
		}
	}
	return { groups, items: groups.flatMap((group) => group.items) };
}

function summaryMessage(compaction: CompactionRecord): ContextMessage {
	return {
		role: "user",
		content: [textBlock(compactionSummaryText(compaction.summary))],
		origin: "compaction_summary",
	};
}

/**
 * The records that make the history its first `keep` items followed by `append`, losing nothing:
 * the leaf moves back to before the first group that changes (a leaf_change; the log keeps the
 * rest on an abandoned branch), and what stays of that group is written again with `append`.
 * Where moving the leaf cannot drop just that (inside what a compaction kept, or its summary),
 * the history starts over on a new root with the kept items written again.
 */
export function rewriteRecords(history: History, keep: number, append: readonly AgentInputItem[]): RecordInput[] {
	if (keep >= history.items.length) return itemRecords(append);
	let before = 0;
	for (const group of history.groups) {
		if (before + group.items.length > keep) {
			if (group.movable) {
				const leafChange: RecordInput = { recordType: "leaf_change", parentSeq: group.parentSeq };
				return [leafChange, ...itemRecords([...group.items.slice(0, keep - before), ...append])];
			}
			break;
		}
		before += group.items.length;
	}
	const newRoot: RecordInput = { recordType: "leaf_change", parentSeq: null };
	return [newRoot, ...itemRecords([...history.items.slice(0, keep), ...append])];
}
