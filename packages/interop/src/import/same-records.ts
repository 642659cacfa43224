import {
	parentSeqOf,
	type RecordInput,
	type SessionStore,
	type StoredRecord,
	validateRecordInput,
} from "@agent/session-format";

/**
 * Whether the first `count` records of a stored session are the first `count` converted
 * records: what makes it safe to append the rest (an import cut off half way, or a source
 * that grew since). Compares every field as the store holds it; timestamps only when the
 * source gave one.
 */
export async function storedPrefixMatches(
	store: SessionStore,
	id: string,
	inputs: readonly RecordInput[],
	count: number,
): Promise<boolean> {
	let seen = 0;
	for await (const stored of store.read(id)) {
		if (stored.seq > count) break;
		const input = inputs[stored.seq - 1];
		if (!input || !sameRecord(stored, input)) return false;
		seen++;
	}
	return seen === count;
}

function sameRecord(stored: StoredRecord, input: RecordInput): boolean {
	if (stored.recordType === "opaque") return false;
	let expected: StoredRecord;
	try {
		expected = validateRecordInput(input, { seq: stored.seq, timestamp: stored.timestamp });
	} catch {
		return false;
	}
	if (parentSeqOf(expected) !== parentSeqOf(stored)) return false;
	// The first stored record carries the session header the store added; the source never has one.
	return (
		canonical({ ...expected, parentSeq: undefined }) ===
		canonical({ ...stored, parentSeq: undefined, session: undefined })
	);
}

/** JSON with object keys sorted, so equal records give equal strings. */
function canonical(value: unknown): string {
	return JSON.stringify(value, (_key, inner: unknown) => {
		if (typeof inner !== "object" || inner === null || Array.isArray(inner)) return inner;
		const sorted: Record<string, unknown> = {};
		for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
		return sorted;
	});
}
