import type { RecordInput } from "@agent/session-format/reading";
import type { ChannelVersions, Checkpoint } from "@langchain/langgraph-checkpoint";
import { type Encoded, type EncodedValue, keyOf } from "./encoding.js";
import { messageRecordOf, toolNamesOf } from "./messages.js";
import { CHECKPOINT, type CheckpointData, VALUE, type ValueData } from "./record-data.js";
import type { CheckpointEntry, ValueEntry } from "./thread-index.js";
import { rememberArray, storedValue, type ThreadView } from "./thread-reader.js";

/** A channel's new value, serialized: whole, or item by item for an array. */
export type EncodedChannel = { array: false; value: EncodedValue } | { array: true; items: EncodedValue[] };

export interface PutInput {
	ns: string;
	parentId: string | undefined;
	checkpoint: Checkpoint;
	metadata: EncodedValue;
	newVersions: ChannelVersions;
	/** The channels of newVersions that have a value, serialized. */
	encoded: Map<string, EncodedChannel>;
	/** Serializes a channel's current value (for a value rewritten because its record is far back). */
	encode(channel: string): Promise<EncodedChannel | undefined>;
	/** The channel whose messages become message records (root namespace only), or false. */
	messagesChannel: string | false;
}

/**
 * How far back (in bytes of this package's records, per byte of the checkpoint's values) a
 * checkpoint may name a value record before the value is written again. A checkpoint's values are
 * then never further back than 4x its size, so reading it reads only the end of the log; and each
 * rewrite is paid for by 4x its size of newer records, so storage still grows with what changes.
 */
export const REWRITE_FACTOR = 4;
/** What a value record costs besides its payload (its envelope), for the rule above. */
const VALUE_OVERHEAD = 160;

interface Planned {
	records: RecordInput[];
	/** The arrays written (by the seq they get), to remember for the next step's diff. */
	arrays: { seq: number; items: Encoded[]; size: number }[];
}

/**
 * The records of one put, in one batch: the values new in this checkpoint (an array as what
 * follows the parent's first items, when that is most of it), the messages new in the messages
 * channel as message records, then the checkpoint, which names each of its values by seq. The
 * first record hangs from the parent checkpoint's tip; when the messages list no longer starts
 * with all of the parent's (a message removed or replaced), from the last message they share.
 */
export async function planPut(thread: ThreadView, input: PutInput): Promise<Planned> {
	const { index } = thread;
	const { ns, checkpoint } = input;
	const parent = input.parentId === undefined ? undefined : index.checkpoint(ns, input.parentId);
	let hangFrom: number | null = ns === "" ? ((parent && index.tipOf(parent.id)) ?? null) : index.looseParent();
	let next = index.lastSeq + 1;
	const values: RecordInput[] = [];
	const arrays: Planned["arrays"] = [];
	const references: Record<string, number> = {};
	const mirrored: RecordInput[] = [];

	const carried = new Map<string, ValueEntry>();
	let totalSize = 0;
	for (const [channel, version] of Object.entries(checkpoint.channel_versions ?? {})) {
		const fresh = channel in input.newVersions ? input.encoded.get(channel) : undefined;
		if (fresh) {
			totalSize += sizeOf(fresh) + VALUE_OVERHEAD;
			continue;
		}
		const entry = carriedValue(thread, parent, ns, channel, version);
		if (!entry) continue;
		carried.set(channel, entry);
		totalSize += entry.size + VALUE_OVERHEAD;
	}
	const limit = REWRITE_FACTOR * totalSize;

	for (const [channel, version] of Object.entries(checkpoint.channel_versions ?? {})) {
		let fresh = channel in input.newVersions ? input.encoded.get(channel) : undefined;
		const old = carried.get(channel);
		if (!fresh && old) {
			// Carried over: name the record that holds it, unless it lies too far back to read cheaply.
			if (index.bytesSince(old.floorAt) <= limit) {
				references[channel] = old.seq;
				continue;
			}
			fresh = await input.encode(channel);
			if (!fresh) {
				references[channel] = old.seq;
				continue;
			}
		}
		if (!fresh) continue;
		const seq = next++;
		references[channel] = seq;
		if (!fresh.array) {
			values.push(valueRecord(seq, { ns, channel, version, value: fresh.value.stored }, fresh.value.bytes));
			continue;
		}
		const items = fresh.items;
		const baseSeq = parent?.values[channel];
		const base = baseSeq === undefined ? undefined : index.value(baseSeq);
		const baseItems = base?.array && !base.broken ? await arrayOf(thread, base.seq) : [];
		const baseKeys = baseItems.map(keyOf);
		const keep = sharedPrefix(baseKeys, items);
		const added = items.slice(keep);
		const addedBytes = sumBytes(added);
		const size = sumBytes(items);
		const continues = base !== undefined && keep > 0 && index.bytesSince(base.floorAt) + addedBytes <= limit;
		values.push(
			continues
				? valueRecord(
						seq,
						{ ns, channel, version, base: base.seq, keep, items: added.map((i) => i.stored) },
						addedBytes,
						size,
					)
				: valueRecord(seq, { ns, channel, version, items: items.map((i) => i.stored) }, size),
		);
		// The shared items as already in memory (parsed once), then the new ones.
		arrays.push({ seq, items: [...baseItems.slice(0, keep), ...added.map((item) => item.stored)], size });
		// Messages are mirrored when the list changed (not when an unchanged list is written again).
		if (ns === "" && channel === input.messagesChannel && !old) {
			const live = checkpoint.channel_values[channel] as unknown[];
			const names = toolNamesOf(live);
			// The message records on the parent's path are its list; when this list does not start with all of it, branch.
			const consistent = parent === undefined || parent.messageCount === baseKeys.length;
			const mirrorFrom = consistent ? keep : 0;
			if (!consistent || keep < baseKeys.length) {
				hangFrom = mirrorFrom === 0 || !parent ? null : (index.messageAt(parent, mirrorFrom - 1) ?? null);
			}
			for (const item of live.slice(mirrorFrom)) mirrored.push(messageRecordOf(item, names));
		}
	}
	const records = [...values];
	for (const record of mirrored) records.push({ ...record, seq: next++ } as RecordInput);
	const { channel_values: _values, ...header } = checkpoint;
	const data: CheckpointData = {
		ns,
		checkpoint: header as CheckpointData["checkpoint"],
		metadata: input.metadata.stored,
		values: references,
	};
	if (input.parentId !== undefined) data.parent = input.parentId;
	records.push({ recordType: "custom", customType: CHECKPOINT, seq: next++, data });
	records[0] = { ...records[0], parentSeq: hangFrom } as RecordInput;
	return { records, arrays };
}

/** After the batch is written: the arrays it holds are what the next step diffs against. */
export function rememberArrays(thread: ThreadView, planned: Planned): void {
	for (const array of planned.arrays) rememberArray(thread, array.seq, array.items, array.size);
}

/** The record of a channel version this checkpoint keeps from before: the parent's, else the latest of that version. */
function carriedValue(
	thread: ThreadView,
	parent: CheckpointEntry | undefined,
	ns: string,
	channel: string,
	version: string | number,
): ValueEntry | undefined {
	const fromParent = parent?.values[channel];
	if (fromParent !== undefined && String(parent?.versions[channel]) === String(version)) {
		return thread.index.value(fromParent);
	}
	return thread.index.valueOf(ns, channel, version);
}

async function arrayOf(thread: ThreadView, seq: number): Promise<Encoded[]> {
	const stored = await storedValue(thread, seq);
	return stored.array ? stored.items : [];
}

function sharedPrefix(baseKeys: string[], items: EncodedValue[]): number {
	const n = Math.min(baseKeys.length, items.length);
	let i = 0;
	while (i < n && baseKeys[i] === items[i]?.key) i++;
	return i;
}

const sumBytes = (items: EncodedValue[]) => items.reduce((sum, item) => sum + item.bytes, 0);
const sizeOf = (value: EncodedChannel) => (value.array ? sumBytes(value.items) : value.value.bytes);

function valueRecord(
	seq: number,
	fields: Omit<ValueData, "bytes" | "size">,
	bytes: number,
	size: number = bytes,
): RecordInput {
	return { recordType: "custom", customType: VALUE, seq, data: { ...fields, bytes, size } };
}
