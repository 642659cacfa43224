import type { StoredRecord } from "@agent/session-format/reading";
import { asEncoded, type Encoded } from "./encoding.js";

/**
 * What a thread's log holds besides message records: `custom` records (never sent to an LLM) of
 * these types. docs: the package README, "How a thread is stored".
 */
export const CHECKPOINT = "langgraph.checkpoint";
export const VALUE = "langgraph.value";
export const WRITES = "langgraph.writes";
/** A list item of the messages channel that is no user, assistant or tool message (a system message...). */
export const OTHER_MESSAGE = "langgraph.message";

export type ChannelVersion = string | number;

/** One version of one channel's value. */
export interface ValueData {
	ns: string;
	channel: string;
	version: ChannelVersion;
	/** A whole value... */
	value?: Encoded;
	/** ...or an array, item by item: the whole of it, or (with `base`) what follows its first `keep` items. */
	items?: Encoded[];
	/** The value record this array continues: its first `keep` items come first. */
	base?: number;
	keep?: number;
	/** The size of what this record stores, and of the whole value (they differ for a continuation). */
	bytes: number;
	size: number;
}

/** A checkpoint without its channel values, which it names by the seq of the value record of each. */
export interface CheckpointData {
	ns: string;
	/** The checkpoint as LangGraph gave it, but channel_values. */
	checkpoint: Record<string, unknown> & { id: string; v?: number; channel_versions?: Record<string, ChannelVersion> };
	parent?: string;
	metadata: Encoded;
	values: Record<string, number>;
}

export interface WriteData {
	idx: number;
	channel: string;
	value: Encoded;
}

/** Writes of one task against one checkpoint. */
export interface WritesData {
	ns: string;
	checkpoint: string;
	task: string;
	path?: string;
	writes: WriteData[];
	bytes: number;
}

function dataOf(record: StoredRecord, customType: string): Record<string, unknown> | undefined {
	if (record.recordType !== "custom" || record.customType !== customType) return undefined;
	const data = record.data;
	return typeof data === "object" && data !== null && !Array.isArray(data)
		? (data as Record<string, unknown>)
		: undefined;
}

const isVersion = (value: unknown): value is ChannelVersion => typeof value === "string" || typeof value === "number";
const isSeq = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && value >= 1;

/** The record's data when it is a well-formed value record; otherwise undefined (it is then ignored). */
export function valueData(record: StoredRecord): ValueData | undefined {
	const data = dataOf(record, VALUE);
	if (!data || typeof data.ns !== "string" || typeof data.channel !== "string" || !isVersion(data.version)) {
		return undefined;
	}
	if (typeof data.bytes !== "number" || typeof data.size !== "number") return undefined;
	if (data.items !== undefined) {
		if (!Array.isArray(data.items) || !data.items.every((item) => asEncoded(item) !== undefined)) return undefined;
		const keep = data.keep;
		const keepOk = typeof keep === "number" && Number.isInteger(keep) && keep >= 0;
		if (data.base !== undefined && (!isSeq(data.base) || data.base >= record.seq || !keepOk)) return undefined;
		return data as unknown as ValueData;
	}
	return asEncoded(data.value) ? (data as unknown as ValueData) : undefined;
}

export function checkpointData(record: StoredRecord): CheckpointData | undefined {
	const data = dataOf(record, CHECKPOINT);
	if (!data || typeof data.ns !== "string" || !asEncoded(data.metadata)) return undefined;
	const checkpoint = data.checkpoint as CheckpointData["checkpoint"] | undefined;
	if (typeof checkpoint !== "object" || checkpoint === null || typeof checkpoint.id !== "string") return undefined;
	if (data.parent !== undefined && typeof data.parent !== "string") return undefined;
	const values = data.values;
	if (typeof values !== "object" || values === null || !Object.values(values).every(isSeq)) return undefined;
	return data as unknown as CheckpointData;
}

export function writesData(record: StoredRecord): WritesData | undefined {
	const data = dataOf(record, WRITES);
	if (!data || typeof data.ns !== "string" || typeof data.checkpoint !== "string" || typeof data.task !== "string") {
		return undefined;
	}
	if (data.path !== undefined && typeof data.path !== "string") return undefined;
	const writes = data.writes;
	if (!Array.isArray(writes)) return undefined;
	for (const write of writes as Partial<WriteData>[]) {
		if (typeof write !== "object" || write === null) return undefined;
		if (typeof write.idx !== "number" || typeof write.channel !== "string" || !asEncoded(write.value)) return undefined;
	}
	return data as unknown as WritesData;
}

/** True for the records this package writes. */
export function isThreadRecord(record: StoredRecord): boolean {
	return record.recordType === "custom" && record.customType.startsWith("langgraph.");
}
