import type { CreateSessionOptions, RecordInput, SessionStore } from "@agent/session-format";
import type { ConvertedSession } from "../types.js";
import type { ImportIndex } from "./import-index.js";
import { storedPrefixMatches } from "./same-records.js";

/** Records per append: a large session is written in batches (an import cut off half way resumes from the last one). */
export const IMPORT_BATCH = 500;

export type ImportStatus = "imported" | "appended" | "unchanged" | "skipped" | "failed";

export interface SessionSync {
	id: string;
	status: Extract<ImportStatus, "imported" | "appended" | "unchanged">;
	/** Said when an earlier import was kept as it is although the source has more. */
	note?: string;
}

/**
 * Writes a converted session into the store, idempotently: a source imported before (same
 * format and source id) is not imported again. When the earlier import holds fewer records and
 * they are exactly the first ones of this conversion (an import cut off, or a source that grew),
 * the rest is appended; anything else is left as it is.
 */
export async function syncConverted(
	store: SessionStore,
	index: ImportIndex,
	converted: ConvertedSession,
): Promise<SessionSync> {
	const { format, sourceId, records } = converted;
	const existing = index.get(format, sourceId);
	if (existing) {
		const have = (await store.metadata(existing.id)).lastSeq;
		if (have >= records.length) return { id: existing.id, status: "unchanged" };
		if (!(await storedPrefixMatches(store, existing.id, records, have))) {
			return {
				id: existing.id,
				status: "unchanged",
				note: `an earlier import (${existing.id}) differs from this source in its first ${have} records (changed in either place since); it was left as it is`,
			};
		}
		await appendFrom(store, existing.id, records, have);
		return { id: existing.id, status: have === 0 ? "imported" : "appended" };
	}
	const metadata = await store.create(createOptions(converted));
	index.set(format, sourceId, metadata);
	await appendFrom(store, metadata.id, records, 0);
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
	return options;
}

/** Appends records[from..] in batches. Each batch's first record names its parent, so a moved leaf cannot re-parent it. */
async function appendFrom(
	store: SessionStore,
	id: string,
	records: readonly RecordInput[],
	from: number,
): Promise<void> {
	for (let start = from; start < records.length; start += IMPORT_BATCH) {
		const batch = records.slice(start, start + IMPORT_BATCH);
		const first = batch[0] as RecordInput;
		if (first.parentSeq === undefined && start > 0) batch[0] = { ...first, parentSeq: start };
		await store.append(id, batch);
	}
}
