import type { CustomRecord, RecordInput, StoredRecord } from "@agent/session-format/reading";
import type { AgentInputItem } from "@openai/agents-core";
import { messageOf, sideOf } from "./item-messages.js";
import { decodeItems, encodeItems, type StoredItems } from "./items-json.js";

/** The customType of the records that keep the SDK's items verbatim. */
export const ITEMS_TYPE = "openai-agents:items";

/**
 * What an items record stands for:
 * - "message": the items the message record right before it was mapped from;
 * - "extra": items no message of ours means (a system message, an unknown item);
 * - "summary": the SDK's own compaction item, right after the compaction record it stands for.
 */
export type ItemsKind = "message" | "extra" | "summary";

export interface ItemsData extends StoredItems {
	kind: ItemsKind;
}

/**
 * The items in groups, one message each: a model response's consecutive items (reasoning, tool
 * calls, output text) form one group; every other item is a group of its own.
 */
export function groupItems(items: readonly AgentInputItem[]): AgentInputItem[][] {
	const groups: AgentInputItem[][] = [];
	let reply: AgentInputItem[] | undefined;
	for (const item of items) {
		if (sideOf(item) === "assistant") {
			if (!reply) {
				reply = [];
				groups.push(reply);
			}
			reply.push(item);
		} else {
			reply = undefined;
			groups.push([item]);
		}
	}
	return groups;
}

/** The records that append `items`: per group, its message (when it has one) and the items themselves. */
export function itemRecords(items: readonly AgentInputItem[]): RecordInput[] {
	const records: RecordInput[] = [];
	for (const group of groupItems(items)) {
		const message = messageOf(group);
		if (message) records.push(message, itemsRecord(group, "message"));
		else records.push(itemsRecord(group, "extra"));
	}
	return records;
}

export function itemsRecord(items: readonly AgentInputItem[], kind: ItemsKind): RecordInput {
	const data: ItemsData = { kind, ...encodeItems(items) };
	return { recordType: "custom", customType: ITEMS_TYPE, data };
}

export function isItemsRecord(record: StoredRecord | undefined): record is CustomRecord & { data: ItemsData } {
	if (record?.recordType !== "custom" || record.customType !== ITEMS_TYPE) return false;
	const data = record.data as Partial<ItemsData> | undefined;
	return Array.isArray(data?.items);
}

/** The items an items record holds, as they were added. */
export function itemsOf(record: CustomRecord & { data: ItemsData }): AgentInputItem[] {
	return decodeItems(record.data);
}
