import type { StoredRecord } from "@agent/session-format/reading";
import {
	type Checkpoint,
	type CheckpointMetadata,
	type CheckpointPendingWrite,
	type CheckpointTuple,
	compareWritesSortKeys,
	maxChannelVersion,
	type SerializerProtocol,
	TASKS,
	writesSortKey,
} from "@langchain/langgraph-checkpoint";
import { decodeValue, type Encoded } from "./encoding.js";
import { storageFailure } from "./errors.js";
import { checkpointData, writesData } from "./record-data.js";
import type { CheckpointEntry, WriteEntry } from "./thread-index.js";
import { fetchRecords, storedValue, type ThreadView, valueSeqs } from "./thread-reader.js";

export interface TupleContext {
	serde: SerializerProtocol;
	nextVersion(current: undefined): number | string;
}

/** Writes in the order LangGraph applies them: (task path, task id, index). */
export function sortedWrites(writes: WriteEntry[]): WriteEntry[] {
	return writes.sort((a, b) =>
		compareWritesSortKeys(writesSortKey(a.taskPath, a.taskId, a.idx), writesSortKey(b.taskPath, b.taskId, b.idx)),
	);
}

export function configOf(threadId: unknown, ns: string, id: string) {
	return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: id } };
}

/**
 * A checkpoint as LangGraph stored it: its record, each channel's value record (an array rebuilt
 * from its chain), its pending writes; a checkpoint of format v < 4 gets the sends its parent's
 * writes held, as LangGraph's own savers migrate them.
 */
export async function buildTuple(
	thread: ThreadView,
	entry: CheckpointEntry,
	context: TupleContext,
): Promise<CheckpointTuple> {
	const { index } = thread;
	const writes = sortedWrites(index.writesOf(entry.ns, entry.id));
	const sends =
		entry.v < 4 && entry.parentId !== undefined
			? sortedWrites(index.writesOf(entry.ns, entry.parentId).filter((write) => write.channel === TASKS))
			: [];
	const wanted = [entry.seq, ...writes.map((w) => w.seq), ...sends.map((w) => w.seq)];
	for (const seq of Object.values(entry.values)) wanted.push(...valueSeqs(thread, seq));
	// One read for everything this tuple needs that is not in memory.
	const records = await fetchRecords(thread, wanted);
	const data = checkpointData(records.get(entry.seq) as StoredRecord);
	if (!data) throw storageFailure(`checkpoint record ${entry.seq} of session ${thread.sessionId} is unreadable`);
	const channelValues: Record<string, unknown> = {};
	for (const [channel, seq] of Object.entries(entry.values)) {
		const stored = await storedValue(thread, seq);
		channelValues[channel] = stored.array
			? await decodeItems(context.serde, stored.items)
			: await decodeValue(context.serde, stored.value);
	}
	const checkpoint = { ...data.checkpoint, channel_values: channelValues } as unknown as Checkpoint;
	if (sends.length > 0) {
		channelValues[TASKS] = await Promise.all(sends.map((write) => writeValue(records, write, context)));
		const versions = { ...checkpoint.channel_versions };
		const known = Object.values(versions);
		versions[TASKS] = known.length > 0 ? maxChannelVersion(...known) : context.nextVersion(undefined);
		checkpoint.channel_versions = versions;
	}
	const tuple: CheckpointTuple = {
		config: configOf(thread.threadId, entry.ns, entry.id),
		checkpoint,
		metadata: (await decodeValue(context.serde, data.metadata)) as CheckpointMetadata,
		pendingWrites: await Promise.all(
			writes.map(
				async (write): Promise<CheckpointPendingWrite> => [
					write.taskId,
					write.channel,
					await writeValue(records, write, context),
				],
			),
		),
	};
	if (entry.parentId !== undefined) tuple.parentConfig = configOf(thread.threadId, entry.ns, entry.parentId);
	return tuple;
}

/**
 * An array's items as the serializer reads them back: one call for the whole array when every
 * item is inline JSON (the serializer revives an array item by item, so it is the same), else one
 * per item.
 */
async function decodeItems(serde: SerializerProtocol, items: Encoded[]): Promise<unknown[]> {
	if (items.length > 1 && items.every((item) => "json" in item)) {
		const text = `[${items.map((item) => JSON.stringify((item as { json: unknown }).json)).join(",")}]`;
		const value: unknown = await serde.loadsTyped("json", text);
		if (Array.isArray(value) && value.length === items.length) return value;
	}
	return Promise.all(items.map((item) => decodeValue(serde, item)));
}

function writeValue(records: Map<number, StoredRecord>, write: WriteEntry, context: TupleContext): Promise<unknown> {
	const data = writesData(records.get(write.seq) as StoredRecord);
	const stored = data?.writes[write.pos];
	if (!stored) throw storageFailure(`pending writes record ${write.seq} is unreadable`);
	return decodeValue(context.serde, stored.value);
}
