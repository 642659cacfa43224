import type { PathSource } from "@agent/compaction";
import { isSideRecord, parentSeqOf, type SessionStore, type StoredRecord } from "@agent/session-format/reading";

/** The log turned out not to be one straight line: its path must be found first. */
export class NotLinear extends Error {
	constructor() {
		super("the session's log is not linear");
		this.name = "NotLinear";
	}
}

/**
 * A session's path streamed straight from its log, for logs that are one straight line (no
 * branch, no leaf moved back, no damaged line): then the path is every record that is not a
 * side record, in log order, and a session of any size is read once, record by record. The
 * first full read checks that and throws {@link NotLinear} as soon as (or, for a leaf moved at
 * the end, once) it sees otherwise; the caller then plans from the resumed path instead.
 */
export function linearLogSource(store: SessionStore, sessionId: string): PathSource {
	return (fromSeq: number) => (fromSeq <= 1 ? checkedLinear(store, sessionId) : nodesFrom(store, sessionId, fromSeq));
}

async function* nodesFrom(store: SessionStore, sessionId: string, fromSeq: number): AsyncGenerator<StoredRecord> {
	for await (const record of store.readFrom(sessionId, fromSeq)) if (!isSideRecord(record)) yield record;
}

async function* checkedLinear(store: SessionStore, sessionId: string): AsyncGenerator<StoredRecord> {
	let lastNode: number | null = null;
	let lastSeq = 0;
	// Side records since the last node, and the node each stands for (its resolved parent).
	const sides = new Map<number, number | null>();
	let leaf: number | null = null;
	for await (const record of store.read(sessionId)) {
		if (record.seq !== lastSeq + 1) throw new NotLinear();
		lastSeq = record.seq;
		const parent = parentSeqOf(record);
		const resolved = parent === null ? null : parent === lastNode ? lastNode : sides.get(parent);
		if (isSideRecord(record)) {
			// A side record standing for an earlier node (a leaf moved back) is checked at the end: the path ends there only if it is the last record.
			sides.set(record.seq, resolved === undefined ? -1 : resolved);
			leaf = resolved === undefined ? -1 : resolved;
			continue;
		}
		if (resolved !== lastNode || (resolved === null && lastNode !== null)) throw new NotLinear();
		sides.clear();
		lastNode = record.seq;
		leaf = record.seq;
		yield record;
	}
	if (leaf !== lastNode) throw new NotLinear();
}
