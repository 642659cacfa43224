import { type RecordInput, type StoredRecord, validateRecordInput } from "@agent/session-format";

/** Fields that hold seqs: they differ between a conversion and the store once a correction renumbered the records. */
const REFERENCE_FIELDS = ["parentSeq", "firstKeptSeq", "targetSeq", "fromSeq", "session", "pathSettings"] as const;
/** Fields the store adds itself: the session header on the first record, the settings a compaction's path was under. */
const STORE_FIELDS = ["parentSeq", "session", "pathSettings"] as const;

/**
 * Whether a stored record is the converted record `input` (whose references are already in
 * stored seqs), comparing every field as the store holds it; timestamps only when the source
 * gave one. `storedParent` is the stored record's parent read through the importer's own records.
 */
export function sameRecord(
	stored: StoredRecord,
	storedParent: number | null,
	input: RecordInput,
	inputParent: number | null,
): boolean {
	if (storedParent !== inputParent) return false;
	const expected = asStored(stored, input);
	if (!expected) return false;
	return canonical(withoutFields(expected, STORE_FIELDS)) === canonical(withoutFields(stored, STORE_FIELDS));
}

/** Like sameRecord, ignoring the tree and every reference: the same content at the same place of the conversation. */
export function sameContent(stored: StoredRecord, input: RecordInput): boolean {
	const expected = asStored(stored, input);
	if (!expected) return false;
	return canonical(withoutFields(expected, REFERENCE_FIELDS)) === canonical(withoutFields(stored, REFERENCE_FIELDS));
}

/**
 * Whether `input` is what the stored record became as the source grew: the same message with
 * more content after it (one model response written over several lines, read half way), or a
 * record the importer adds itself (kept source lines and markers of the format, `prefixes`).
 */
export function supersededBy(stored: StoredRecord, input: RecordInput, prefixes: readonly string[]): boolean {
	if (stored.recordType === "custom") return prefixes.some((prefix) => stored.customType.startsWith(prefix));
	if (stored.recordType !== "message" || input.recordType !== "message" || stored.role !== input.role) return false;
	const expected = asStored(stored, input);
	if (expected?.recordType !== "message" || expected.content.length < stored.content.length) return false;
	return stored.content.every((block, index) => canonical(block) === canonical(expected.content[index]));
}

function asStored(stored: StoredRecord, input: RecordInput): StoredRecord | undefined {
	if (stored.recordType === "opaque") return undefined;
	try {
		const copy = { ...input } as RecordInput;
		delete copy.parentSeq;
		return validateRecordInput(copy, { seq: stored.seq, timestamp: stored.timestamp });
	} catch {
		return undefined;
	}
}

function withoutFields(record: object, fields: readonly string[]): Record<string, unknown> {
	const out: Record<string, unknown> = { ...record };
	for (const field of fields) delete out[field];
	return out;
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
