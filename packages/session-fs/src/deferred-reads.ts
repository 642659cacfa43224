import type { StoredRecord } from "@agent/session-format/reading";

export async function* iterate(records: readonly StoredRecord[]): AsyncGenerator<StoredRecord> {
	for (const record of records) yield record;
}
