import type { CreateSessionOptions, RecordInput, SessionStore } from "@agent/session-format";
import type { ConvertedSession } from "../types.js";
import type { ImportIndex } from "./import-index.js";
import { parentPosition, remapReferences } from "./remap.js";
import { CORRECTION_TYPE, StoredImport } from "./stored-import.js";
import { planSync } from "./sync-plan.js";
import { checkConverted } from "./validate-converted.js";

/** Records per append: a large session is written in batches (an import cut off half way resumes from the last one). */
export const IMPORT_BATCH = 500;

export type ImportStatus = "imported" | "appended" | "unchanged" | "skipped" | "failed";

export interface SessionSync {
	id: string;
	status: Extract<ImportStatus, "imported" | "appended" | "unchanged">;
	/** Said when an earlier import was kept as it is although the source differs. */
	note?: string;
}

/**
 * Writes a converted session into the store, idempotently: a source imported before (same
 * format and source id) is not imported again, but brought to what a fresh import would give:
 * what is new is appended, and records that changed since (a response read half way) are
 * corrected on a branch from their parent (see planSync). A new session is all or nothing:
 * the records are checked before it is created, and it is deleted when writing them fails.
 */
export async function syncConverted(
	store: SessionStore,
	index: ImportIndex,
	converted: ConvertedSession,
): Promise<SessionSync> {
	const { format, sourceId, records } = converted;
	checkConverted(converted);
	const existing = index.get(format, sourceId);
	if (existing) {
		const stored = await StoredImport.read(store, existing.id);
		const plan = planSync(stored, records, [`${format}:`, "interop:"]);
		if (plan.kind === "unchanged") return { id: existing.id, status: "unchanged" };
		if (plan.kind === "diverged") {
			return {
				id: existing.id,
				status: "unchanged",
				note: `an earlier import (${existing.id}) differs from this source from its record ${plan.at} on (continued here since); it was left as it is`,
			};
		}
		await appendFrom(store, existing.id, stored, records, plan.from, plan.correction);
		return { id: existing.id, status: stored.count === 0 ? "imported" : "appended" };
	}
	const metadata = await store.create(createOptions(converted));
	index.set(format, sourceId, metadata);
	try {
		await appendFrom(store, metadata.id, new StoredImport(), records, 1, false);
	} catch (error) {
		index.forget(format, sourceId, metadata.id);
		await store.delete(metadata.id).catch(() => undefined);
		throw error;
	}
	return { id: metadata.id, status: "imported" };
}

function createOptions(converted: ConvertedSession): CreateSessionOptions {
	const options: CreateSessionOptions = { importedFrom: { format: converted.format, sourceId: converted.sourceId } };
	if (converted.createdAt && !Number.isNaN(Date.parse(converted.createdAt))) options.createdAt = converted.createdAt;
	if (converted.name) options.name = converted.name;
	if (converted.model) options.model = converted.model;
	if (converted.identityKey) options.identityKey = converted.identityKey;
	if (converted.uptimeSeconds !== undefined && converted.uptimeSeconds > 0)
		options.uptimeSeconds = converted.uptimeSeconds;
	if (converted.cwd) options.cwd = converted.cwd;
	return options;
}

/**
 * Appends records[from..] (positions 1-based) after what is stored. References are mapped to
 * stored seqs: positions before `from` to the records an earlier import wrote, the others to
 * the seqs they get now. A correction starts with an `interop:correction` record under the
 * parent of the first corrected record, so the corrected records form a branch of their own.
 */
async function appendFrom(
	store: SessionStore,
	id: string,
	stored: StoredImport,
	records: readonly RecordInput[],
	from: number,
	correction: boolean,
): Promise<void> {
	const out: RecordInput[] = [];
	let nextSeq = stored.lastSeq + 1;
	const newSeq = new Map<number, number>();
	const seqOf = (position: number): number =>
		position < from ? (stored.seqAt[position - 1] as number) : (newSeq.get(position) as number);
	const attach = (position: number | null): number | null => {
		if (position === null) return null;
		return position < from ? stored.attachPoint(seqOf(position)) : seqOf(position);
	};
	if (correction) {
		const first = records[from - 1];
		const parent = first ? attach(parentPosition(first, from)) : attach(from - 1);
		const marker: RecordInput = {
			recordType: "custom",
			customType: CORRECTION_TYPE,
			data: {
				fromRecord: from,
				replaces: stored.seqAt.slice(from - 1),
				note: "the source changed after an earlier import; the records after this one replace the branch that starts at the same parent",
			},
			parentSeq: parent,
		};
		if (first?.timestamp) marker.timestamp = first.timestamp;
		out.push(marker);
		nextSeq++;
	}
	for (let position = from; position <= records.length; position++) {
		const input = records[position - 1] as RecordInput;
		const seq = nextSeq++;
		newSeq.set(position, seq);
		const record = remapReferences(input, seqOf);
		const parent = correction && position === from ? seq - 1 : attach(parentPosition(input, position));
		if (parent !== seq - 1) record.parentSeq = parent;
		out.push(record);
	}
	for (let start = 0; start < out.length; start += IMPORT_BATCH) {
		const batch = out.slice(start, start + IMPORT_BATCH);
		const first = batch[0] as RecordInput;
		const firstSeq = stored.lastSeq + 1 + start;
		if (first.parentSeq === undefined && firstSeq > 1) batch[0] = { ...first, parentSeq: firstSeq - 1 };
		await store.append(id, batch);
	}
}
