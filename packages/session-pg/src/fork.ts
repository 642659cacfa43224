import {
	type ForkOptions,
	newSessionId,
	type SessionMetadata,
	type StoredRecord,
	serializeRecord,
} from "@agent/session-format";
import {
	applyRecord,
	cloneMetadata,
	forkedRecord,
	forkMetadata,
	sessionHeaderOf,
	withSessionHeader,
} from "@agent/session-format/store-kit";
import type { PoolClient } from "pg";
import { invalidArgument } from "./errors.js";
import { walkRows } from "./read-path.js";
import { decodeRow, type RecordRow } from "./rows.js";
import { insertRecords, insertSession, lineBytes, loadMetadata, saveMetadata, where } from "./session-rows.js";

/**
 * Forks session `id` in one transaction (the same plan as the file store: session-format's
 * forkMetadata / forkedRecord / withSessionHeader): the path to atSeq renumbered 1..n, the labels
 * of its records after it, the new session's header on its first record.
 */
export async function forkSession(
	client: PoolClient,
	id: string,
	options: ForkOptions,
	now: Date,
): Promise<SessionMetadata> {
	const source = await loadMetadata(client, id);
	const atSeq = options.atSeq ?? source.leafSeq ?? source.lastSeq;
	if (!Number.isInteger(atSeq) || atSeq < 0 || atSeq > source.lastSeq) {
		throw invalidArgument(`cannot fork session ${id} at seq ${atSeq}: it holds seqs 1..${source.lastSeq}`);
	}
	const walked = await walkRows(client, id, {
		leafSeq: atSeq,
		stopAtCompaction: false,
		leafFallsBack: options.atSeq === undefined,
	});
	if (options.atSeq !== undefined && atSeq > 0 && walked.start === undefined) {
		throw invalidArgument(`cannot fork session ${id} at seq ${atSeq}: no readable record has that seq`);
	}
	const path = walked.items;
	const newSeq = new Map(path.map((record, index) => [record.seq, index + 1]));
	const keptSeqs = path.map((record) => record.seq);
	// The latest label of each record on the path (labels are side records, read by their index).
	const labelRows = await client.query<RecordRow>(
		"SELECT seq, line FROM agent_records WHERE session_id = $1 AND record_type = 'label' ORDER BY seq DESC",
		[id],
	);
	const labels = new Map<number, StoredRecord & { recordType: "label" }>();
	for (const row of labelRows.rows) {
		const record = decodeRow(row, {}, where(id));
		if (record?.recordType !== "label" || labels.has(record.targetSeq)) continue;
		labels.set(record.targetSeq, record);
	}
	const labelled = [...labels.values()]
		.filter((label) => newSeq.has(label.targetSeq) && (label.label ?? "").length > 0)
		.sort((a, b) => a.seq - b.seq);

	const created = forkMetadata(source, options, path[path.length - 1]?.seq ?? 0, now);
	created.id = newSessionId();
	const metadata = cloneMetadata(created);
	const header = sessionHeaderOf(created);
	const records: StoredRecord[] = path.map((record) => {
		const copy = forkedRecord(record, newSeq, keptSeqs);
		return copy.seq === 1 ? withSessionHeader(copy, header) : copy;
	});
	let seq = path.length;
	for (const label of labelled) {
		const { parentSeq: _dropped, ...rest } = label;
		records.push({ ...rest, seq: ++seq, targetSeq: newSeq.get(label.targetSeq) as number });
	}
	for (const record of records) applyRecord(metadata, record);
	const lines = records.map(serializeRecord);
	metadata.logBytes = lineBytes(lines);
	await insertSession(client, created, created);
	await insertRecords(client, created.id, records, lines);
	await saveMetadata(client, metadata);
	return metadata;
}
