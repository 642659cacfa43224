import { parentSeqOf, type StoredRecord } from "@agent/session-format/reading";
import {
	type ChannelVersion,
	checkpointData,
	isThreadRecord,
	OTHER_MESSAGE,
	valueData,
	writesData,
} from "./record-data.js";

export interface CheckpointEntry {
	seq: number;
	ns: string;
	id: string;
	parentId: string | undefined;
	/** The metadata as JSON, for list filters (undefined when the serializer did not write JSON). */
	metadata: unknown;
	versions: Record<string, ChannelVersion>;
	/** The seq of the value record of each channel that has a value. */
	values: Record<string, number>;
	/** The checkpoint format version (below 4: pending sends are migrated when read). */
	v: number;
	/** The message records on the path to this checkpoint: the last one, and how many. */
	lastMessage: number | undefined;
	messageCount: number;
}

export interface ValueEntry {
	seq: number;
	ns: string;
	channel: string;
	version: ChannelVersion;
	/** Stored item by item (an array), or whole. */
	array: boolean;
	/** The value record whose first `keep` items this array continues. */
	base: number | undefined;
	keep: number;
	/** The array's length. */
	count: number;
	/** The whole value's size. */
	size: number;
	/** The oldest record reading this value needs (itself, or the first of its chain), and where it is in the log. */
	floor: number;
	floorAt: number;
	/** A continuation of a record that is not in the log: reading it fails. */
	broken: boolean;
}

export interface WriteEntry {
	seq: number;
	/** Its place in the record's writes. */
	pos: number;
	taskId: string;
	taskPath: string;
	idx: number;
	channel: string;
}

/** Bytes counted for each record of ours besides its payload (its envelope: type, seq, timestamp...). */
const RECORD_OVERHEAD = 120;

const checkpointKey = (ns: string, id: string) => `${ns}\u0000${id}`;
const valueKey = (ns: string, channel: string, version: ChannelVersion) => `${ns}\u0000${channel}\u0000${version}`;

/**
 * What one thread's log holds, by key: checkpoints per namespace, value records, pending writes,
 * and where the next records hang in the tree. Built from the log (records applied in log order)
 * and kept up to date by applying what is appended, so finding a checkpoint never reads the log;
 * reading its values then reads only the records it names.
 *
 * The tree: a root-namespace checkpoint's records (its messages, its new values, then itself)
 * hang from the tip of its parent checkpoint, so a put from an older checkpoint is a branch.
 * Everything else (pending writes, subgraph checkpoints) continues the newest root checkpoint's
 * tip, so it never makes a branch of its own.
 */
export class ThreadIndex {
	lastSeq = 0;
	/** Payload bytes of this package's records so far: positions for "how far back is that record". */
	totalBytes = 0;
	private readonly checkpoints = new Map<string, CheckpointEntry>();
	private readonly latest = new Map<string, string>();
	private readonly valueEntries = new Map<number, ValueEntry>();
	private readonly valueByKey = new Map<string, number>();
	private readonly writeEntries = new Map<string, Map<string, WriteEntry>>();
	private readonly tips = new Map<string, number>();
	private head: string | undefined;
	private looseTip: number | undefined;
	/** Per record of ours: the last message record on its path and how many; per message record, the one before it. */
	private readonly lastMessageOf = new Map<number, number>();
	private readonly messageCountOf = new Map<number, number>();
	private readonly previousMessage = new Map<number, number>();

	constructor(readonly sessionId: string) {}

	apply(record: StoredRecord): void {
		if (record.seq > this.lastSeq) this.lastSeq = record.seq;
		const isMessage =
			record.recordType === "message" || (record.recordType === "custom" && record.customType === OTHER_MESSAGE);
		if (!isMessage && !isThreadRecord(record)) return;
		this.trackMessages(record, isMessage);
		if (isMessage) return;
		const value = valueData(record);
		if (value) {
			this.totalBytes += value.bytes + RECORD_OVERHEAD;
			this.addValue(record.seq, value);
			if (value.ns !== "") this.extendTip(record.seq);
			return;
		}
		const writes = writesData(record);
		if (writes) {
			this.totalBytes += writes.bytes + RECORD_OVERHEAD;
			const key = checkpointKey(writes.ns, writes.checkpoint);
			const byTask = this.writeEntries.get(key) ?? new Map<string, WriteEntry>();
			this.writeEntries.set(key, byTask);
			writes.writes.forEach((write, pos) => {
				const taskKey = `${writes.task}\u0000${write.idx}`;
				// Insert-if-absent for regular writes; special (negative-index) writes replace.
				if (write.idx >= 0 && byTask.has(taskKey)) return;
				byTask.set(taskKey, {
					seq: record.seq,
					pos,
					taskId: writes.task,
					taskPath: writes.path ?? "",
					idx: write.idx,
					channel: write.channel,
				});
			});
			this.extendTip(record.seq);
			return;
		}
		const checkpoint = checkpointData(record);
		if (!checkpoint) return;
		this.totalBytes += RECORD_OVERHEAD;
		const { ns } = checkpoint;
		const id = checkpoint.checkpoint.id;
		this.checkpoints.set(checkpointKey(ns, id), {
			seq: record.seq,
			ns,
			id,
			parentId: checkpoint.parent,
			metadata: "json" in checkpoint.metadata ? checkpoint.metadata.json : undefined,
			versions: checkpoint.checkpoint.channel_versions ?? {},
			values: checkpoint.values,
			v: typeof checkpoint.checkpoint.v === "number" ? checkpoint.checkpoint.v : 1,
			lastMessage: this.lastMessageOf.get(record.seq) || undefined,
			messageCount: this.messageCountOf.get(record.seq) ?? 0,
		});
		const newest = this.latest.get(ns);
		if (newest === undefined || id > newest) this.latest.set(ns, id);
		if (ns === "") {
			this.tips.set(id, record.seq);
			this.head = id;
		} else {
			this.extendTip(record.seq);
		}
	}

	checkpoint(ns: string, id: string): CheckpointEntry | undefined {
		return this.checkpoints.get(checkpointKey(ns, id));
	}

	/** The newest checkpoint of a namespace: the greatest id, as every LangGraph saver orders them. */
	newest(ns: string): CheckpointEntry | undefined {
		const id = this.latest.get(ns);
		return id === undefined ? undefined : this.checkpoint(ns, id);
	}

	allCheckpoints(): IterableIterator<CheckpointEntry> {
		return this.checkpoints.values();
	}

	value(seq: number): ValueEntry | undefined {
		return this.valueEntries.get(seq);
	}

	/** The latest value record of this channel version in the namespace. */
	valueOf(ns: string, channel: string, version: ChannelVersion): ValueEntry | undefined {
		const seq = this.valueByKey.get(valueKey(ns, channel, version));
		return seq === undefined ? undefined : this.valueEntries.get(seq);
	}

	/** The value records that make up a value, oldest first (an array's first whole record, then its continuations). */
	chainOf(seq: number): number[] {
		const chain: number[] = [];
		for (let entry = this.valueEntries.get(seq); entry; ) {
			chain.push(entry.seq);
			entry = entry.base === undefined ? undefined : this.valueEntries.get(entry.base);
		}
		return chain.reverse();
	}

	writesOf(ns: string, id: string): WriteEntry[] {
		return [...(this.writeEntries.get(checkpointKey(ns, id))?.values() ?? [])];
	}

	hasWrite(ns: string, id: string, taskId: string, idx: number): boolean {
		return this.writeEntries.get(checkpointKey(ns, id))?.has(`${taskId}\u0000${idx}`) ?? false;
	}

	/** Where a root checkpoint's children hang: the last record that continues it. */
	tipOf(rootCheckpointId: string): number | undefined {
		return this.tips.get(rootCheckpointId);
	}

	/** Where records that make no branch hang: the newest root checkpoint's tip (null: a new root). */
	looseParent(): number | null {
		const tip = this.head === undefined ? this.looseTip : this.tips.get(this.head);
		return tip ?? null;
	}

	/** The seq of the message record at `position` (0-based) on a checkpoint's path. */
	messageAt(entry: CheckpointEntry, position: number): number | undefined {
		let seq = entry.lastMessage;
		for (let at = entry.messageCount - 1; seq !== undefined && at > position; at--) {
			seq = this.previousMessage.get(seq) || undefined;
		}
		return position >= 0 && position < entry.messageCount ? seq : undefined;
	}

	bytesSince(position: number): number {
		return this.totalBytes - position;
	}

	private addValue(seq: number, value: ReturnType<typeof valueData> & object): void {
		const base = value.base === undefined ? undefined : this.valueEntries.get(value.base);
		const continues = value.base !== undefined;
		const entry: ValueEntry = {
			seq,
			ns: value.ns,
			channel: value.channel,
			version: value.version,
			array: value.items !== undefined,
			base: value.base,
			keep: value.keep ?? 0,
			count: continues ? (value.keep ?? 0) + (value.items?.length ?? 0) : (value.items?.length ?? 0),
			size: value.size,
			floor: base ? base.floor : seq,
			floorAt: base ? base.floorAt : this.totalBytes,
			broken: continues && (!base || base.broken || !base.array),
		};
		this.valueEntries.set(seq, entry);
		this.valueByKey.set(valueKey(value.ns, value.channel, value.version), seq);
	}

	private extendTip(seq: number): void {
		if (this.head === undefined) this.looseTip = seq;
		else this.tips.set(this.head, seq);
	}

	private trackMessages(record: StoredRecord, isMessage: boolean): void {
		const parent = parentSeqOf(record);
		const last = parent === null ? 0 : (this.lastMessageOf.get(parent) ?? 0);
		const count = parent === null ? 0 : (this.messageCountOf.get(parent) ?? 0);
		if (isMessage) {
			this.previousMessage.set(record.seq, last);
			this.lastMessageOf.set(record.seq, record.seq);
			this.messageCountOf.set(record.seq, count + 1);
		} else {
			this.lastMessageOf.set(record.seq, last);
			this.messageCountOf.set(record.seq, count);
		}
	}
}
