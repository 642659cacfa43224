import { InvalidRecordError } from "./errors.js";
import type { SessionMetadata } from "./metadata.js";
import { sessionHeaderOf } from "./metadata-derive.js";
import type { RecordInput, SessionRecord } from "./records.js";
import { validateRecordInput } from "./validate.js";

const PREFIX = "@agent/session-format:";

/**
 * Validates a whole batch (for every store backend) before anything is written and fills in seq (from the last seq),
 * schemaVersion and timestamp. The first record of a session (seq 1) gets the session header:
 * the creation facts in `metadata`, so the log holds them. The first record of the batch
 * continues from the active leaf (metadata.leafSeq) unless it names its own parent. Throws
 * InvalidRecordError naming the record and field.
 */
export function prepareBatch(
	metadata: SessionMetadata,
	inputs: readonly RecordInput[],
	timestamp: string,
): SessionRecord[] {
	if (!Array.isArray(inputs)) {
		throw new InvalidRecordError(`${PREFIX} append takes an array of records, got ${typeof inputs}`);
	}
	const firstSeq = metadata.lastSeq + 1;
	const records = inputs.map((input, index) => {
		const seq = firstSeq + index;
		const given = (input as { seq?: unknown } | null)?.seq;
		if (given !== undefined && given !== seq) {
			throw new InvalidRecordError(
				`${PREFIX} record ${index + 1} of the batch asks for seq ${String(given)}, but the next seq is ${seq}; omit seq and the store assigns it`,
				{ path: "seq", index },
			);
		}
		const session = seq === 1 ? sessionHeaderOf(metadata) : undefined;
		return validateRecordInput(input, session ? { seq, timestamp, session } : { seq, timestamp }, index);
	});
	const first = records[0];
	const leaf = metadata.leafSeq;
	if (first && leaf !== undefined && first.parentSeq === undefined && leaf !== first.seq - 1) {
		records[0] = withParent(first, leaf);
	}
	return records;
}

/** The record with parentSeq in its place among the keys (after timestamp), as the schema orders them. */
function withParent(record: SessionRecord, parentSeq: number): SessionRecord {
	const { recordType, schemaVersion, seq, timestamp, ...rest } = record;
	return { recordType, schemaVersion, seq, timestamp, parentSeq, ...rest } as SessionRecord;
}
