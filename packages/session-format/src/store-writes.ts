import { damageAcks, repairedReport } from "./log-check.js";
import type { SessionMetadata } from "./metadata.js";
import { cloneMetadata } from "./metadata-derive.js";
import { isSideRecord } from "./record-kinds.js";
import type { RecordInput, StoredRecord } from "./records.js";
import type { BackendWriter } from "./session-backend.js";
import type { AppendResult, VerifyReport } from "./store-contract.js";
import type { StoreErrors } from "./store-errors.js";

/** What the store shell (store-shell.ts) does under a session's lease, the same on every backend. */

/** branch: moves the active leaf to `atSeq` (a leaf_change record), unless it is there already. */
export async function moveLeaf(
	writer: BackendWriter,
	id: string,
	atSeq: number,
	errors: StoreErrors,
): Promise<AppendResult> {
	const lastSeq = writer.current.lastSeq;
	const cannot = `cannot branch session ${id} at seq ${atSeq}`;
	if (!Number.isInteger(atSeq) || atSeq < 1 || atSeq > lastSeq) {
		throw errors.invalidArgument(`${cannot}: it holds seqs 1..${lastSeq}; pick one of those`);
	}
	const target = await writer.findRecord(atSeq);
	if (!target) throw errors.invalidArgument(`${cannot}: no readable record has that seq`);
	if (isSideRecord(target)) {
		throw errors.invalidArgument(
			`${cannot}: it is a ${target.recordType} record, which belongs to no branch; pick a message`,
		);
	}
	if (atSeq === (writer.current.leafSeq ?? lastSeq)) return { records: [], metadata: cloneMetadata(writer.current) };
	return writer.append([{ recordType: "leaf_change", parentSeq: atSeq }]);
}

/** label: a label record for a seq the session holds (an empty label clears it). */
export function labelRecord(
	writer: BackendWriter,
	id: string,
	targetSeq: number,
	label: string,
	errors: StoreErrors,
): Promise<AppendResult> {
	const lastSeq = writer.current.lastSeq;
	if (!Number.isInteger(targetSeq) || targetSeq < 1 || targetSeq > lastSeq) {
		throw errors.invalidArgument(`cannot label seq ${targetSeq} of session ${id}: it holds seqs 1..${lastSeq}`);
	}
	return writer.append([{ recordType: "label", targetSeq, label }]);
}

/** Appends `record` unless `already` says the log says so already (archive, unarchive, uptime 0). */
export async function appendUnless(
	writer: BackendWriter,
	already: (metadata: SessionMetadata) => boolean,
	record: RecordInput,
): Promise<SessionMetadata> {
	return already(writer.current) ? cloneMetadata(writer.current) : (await writer.append([record])).metadata;
}

/**
 * repair, under the lease (whose writer cut a torn tail off first): acknowledges each damaged line
 * in the middle of the log with a damage_ack record, and rebuilds the cached metadata from the
 * log. The log is only appended to. Verify passes afterwards unless something else is wrong.
 */
export async function repairLog(writer: BackendWriter): Promise<VerifyReport> {
	const first = await writer.check();
	const acks = damageAcks(first.unacknowledged);
	if (acks.length > 0) await writer.append(acks);
	const outcome = acks.length > 0 ? await writer.check() : first;
	if (outcome.rebuilt) await writer.replaceMetadata(outcome.rebuilt);
	return repairedReport(outcome.report, acks.length);
}

/** Records held in memory, as the stream a read gives. */
export async function* iterate(records: readonly StoredRecord[]): AsyncGenerator<StoredRecord> {
	for (const record of records) yield record;
}
