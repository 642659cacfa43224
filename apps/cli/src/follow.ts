import { setTimeout as sleep } from "node:timers/promises";
import type { ReadOptions, SessionStore, StoredRecord } from "@agent/session-format/reading";

export interface FollowOptions extends Pick<ReadOptions, "onProblem"> {
	/** How often to look for new records, in ms. */
	intervalMs?: number;
	signal: AbortSignal;
}

/** How many new records are read from the end of the log rather than by a forward scan. */
const TAIL_READ_LIMIT = 1000;

/**
 * Yields the records appended after `afterSeq`, as other processes append them, until the signal
 * aborts. Looks at the metadata (cheap) and reads only when the log grew: the new records come
 * from the end of the log, so following a huge session costs no more than following a small one.
 */
export async function* followRecords(
	store: SessionStore,
	id: string,
	afterSeq: number,
	options: FollowOptions,
): AsyncGenerator<StoredRecord> {
	let seen = afterSeq;
	const readOptions: ReadOptions = options.onProblem ? { onProblem: options.onProblem } : {};
	while (!options.signal.aborted) {
		const { lastSeq } = await store.metadata(id);
		if (lastSeq > seen) {
			const fresh =
				lastSeq - seen <= TAIL_READ_LIMIT
					? await store.tail(id, lastSeq - seen, readOptions)
					: store.readFrom(id, seen + 1, readOptions);
			for await (const record of fresh) {
				if (record.seq <= seen) continue;
				seen = record.seq;
				yield record;
			}
			// A skipped corrupt line leaves a hole in the seqs; the metadata says how far the log goes.
			if (lastSeq > seen) seen = lastSeq;
		}
		try {
			await sleep(options.intervalMs ?? 200, undefined, { signal: options.signal });
		} catch {
			return;
		}
	}
}
