import type { RecordInput } from "@agent/session-format/reading";
import { type PendingWrite, type SerializerProtocol, WRITES_IDX_MAP } from "@langchain/langgraph-checkpoint";
import { type EncodedValue, encodeValue } from "./encoding.js";
import { WRITES, type WritesData } from "./record-data.js";
import type { ThreadView } from "./thread-reader.js";

export interface EncodedWrite {
	/** LangGraph's index: the write's place, or a negative one for special channels (errors, interrupts...). */
	idx: number;
	channel: string;
	value: EncodedValue;
}

export function encodeWrites(serde: SerializerProtocol, writes: PendingWrite[]): Promise<EncodedWrite[]> {
	return Promise.all(
		writes.map(async ([channel, value], position) => ({
			idx: WRITES_IDX_MAP[channel] ?? position,
			channel,
			value: await encodeValue(serde, value),
		})),
	);
}

export interface WritesTarget {
	ns: string;
	checkpointId: string;
	taskId: string;
	taskPath: string | undefined;
}

/**
 * One record for a task's writes against a checkpoint, as LangGraph's own savers keep them: a
 * regular write whose (checkpoint, task, index) is stored already is left out (insert-if-absent),
 * a special one is written again and replaces it. Nothing new: no record.
 */
export function planWrites(view: ThreadView, target: WritesTarget, writes: EncodedWrite[]): RecordInput[] {
	const { index } = view;
	const fresh = writes.filter(
		(write) => write.idx < 0 || !index.hasWrite(target.ns, target.checkpointId, target.taskId, write.idx),
	);
	if (fresh.length === 0) return [];
	const data: WritesData = {
		ns: target.ns,
		checkpoint: target.checkpointId,
		task: target.taskId,
		writes: fresh.map((write) => ({ idx: write.idx, channel: write.channel, value: write.value.stored })),
		bytes: fresh.reduce((sum, write) => sum + write.value.bytes, 0),
	};
	if (target.taskPath) data.path = target.taskPath;
	return [
		{
			recordType: "custom",
			customType: WRITES,
			seq: index.lastSeq + 1,
			parentSeq: index.looseParent(),
			data,
		},
	];
}
