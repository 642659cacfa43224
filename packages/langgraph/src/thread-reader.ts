import type { SessionStore, StoredRecord } from "@agent/session-format/reading";
import type { Encoded } from "./encoding.js";
import { storageFailure } from "./errors.js";
import type { RecordCache } from "./record-cache.js";
import { valueData } from "./record-data.js";
import type { ThreadIndex } from "./thread-index.js";

/** A thread as one operation sees it: its session, its index, and where recent records are kept. */
export interface ThreadView {
	readonly threadId: string;
	readonly sessionId: string;
	readonly index: ThreadIndex;
	readonly store: SessionStore;
	readonly cache: RecordCache;
}

/** A channel value as stored: whole, or an array item by item. */
export type StoredValue = { array: false; value: Encoded } | { array: true; items: Encoded[] };

/** What a record weighs in the cache: its payload when it says, else a guess. */
export function recordWeight(record: StoredRecord): number {
	const data = record.recordType === "custom" ? (record.data as { bytes?: unknown } | undefined) : undefined;
	return (typeof data?.bytes === "number" ? data.bytes : 800) + 200;
}

/**
 * The records with these seqs: from the cache, else in one forward read from the first one missing
 * to the last one wanted (a store's readFrom seeks, so what it costs follows what lies between).
 */
export async function fetchRecords(thread: ThreadView, seqs: Iterable<number>): Promise<Map<number, StoredRecord>> {
	const found = new Map<number, StoredRecord>();
	const missing = new Set<number>();
	for (const seq of seqs) {
		const cached = thread.cache.get<StoredRecord>(thread.sessionId, seq);
		if (cached) found.set(seq, cached);
		else missing.add(seq);
	}
	if (missing.size === 0) return found;
	let first = Number.POSITIVE_INFINITY;
	let last = 0;
	for (const seq of missing) {
		if (seq < first) first = seq;
		if (seq > last) last = seq;
	}
	for await (const record of thread.store.readFrom(thread.sessionId, first)) {
		if (missing.delete(record.seq)) {
			found.set(record.seq, record);
			thread.cache.set(thread.sessionId, record.seq, record, recordWeight(record));
		}
		if (missing.size === 0 || record.seq >= last) break;
	}
	if (missing.size > 0) {
		throw storageFailure(
			`session ${thread.sessionId} (thread ${JSON.stringify(thread.threadId)}) lacks records ${[...missing].join(", ")} that its checkpoints name; the store's verify() reports what is damaged`,
		);
	}
	return found;
}

/** Every record a value needs (its chain, for an array continued from earlier records). */
export function valueSeqs(thread: ThreadView, seq: number): number[] {
	const entry = thread.index.value(seq);
	if (!entry) return [seq];
	if (!entry.array) return [seq];
	if (thread.cache.get(thread.sessionId, `a${seq}`)) return [];
	return thread.index.chainOf(seq);
}

/** The value in value record `seq`, an array rebuilt from its chain (records fetched as needed). */
export async function storedValue(thread: ThreadView, seq: number): Promise<StoredValue> {
	const entry = thread.index.value(seq);
	if (!entry || entry.broken) {
		throw storageFailure(
			`session ${thread.sessionId} (thread ${JSON.stringify(thread.threadId)}) has no readable channel value at seq ${seq}; the store's verify() reports what is damaged`,
		);
	}
	if (!entry.array) {
		const record = (await fetchRecords(thread, [seq])).get(seq) as StoredRecord;
		return { array: false, value: valueData(record)?.value as Encoded };
	}
	const cached = thread.cache.get<Encoded[]>(thread.sessionId, `a${seq}`);
	if (cached) return { array: true, items: cached };
	const chain = thread.index.chainOf(seq);
	// Start from the newest array of the chain already rebuilt, if any.
	let start = 0;
	let items: Encoded[] = [];
	for (let i = chain.length - 1; i >= 0; i--) {
		const hit = thread.cache.get<Encoded[]>(thread.sessionId, `a${chain[i]}`);
		if (hit) {
			items = hit;
			start = i + 1;
			break;
		}
	}
	const records = await fetchRecords(thread, chain.slice(start));
	// One copy, then in place: a long chain of additions costs what it adds, not its length squared.
	items = items.slice();
	for (const link of chain.slice(start)) {
		const data = valueData(records.get(link) as StoredRecord);
		if (data?.base === undefined) items.length = 0;
		else if (data.keep !== undefined && data.keep < items.length) items.length = data.keep;
		for (const item of data?.items ?? []) items.push(item);
	}
	rememberArray(thread, seq, items, entry.size);
	return { array: true, items };
}

export function rememberArray(thread: ThreadView, seq: number, items: Encoded[], size: number): void {
	thread.cache.set(thread.sessionId, `a${seq}`, items, size + 16 * items.length);
}
