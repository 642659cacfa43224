import {
	type AppendResult,
	applyRecord,
	cloneMetadata,
	prepareBatch,
	type RecordInput,
	type SessionMetadata,
	type SessionRecord,
	serializeRecord,
} from "@agent/session-format";
import { lineBytes } from "./session-rows.js";

interface Pending {
	created: SessionMetadata;
	metadata: SessionMetadata;
	records: SessionRecord[];
	lines: string[];
}

/**
 * Deferred persistence (pi-style), as the file store does it: a session created with
 * `deferred: true` lives in this store instance's memory until its first assistant message, then
 * is written out at once (the caller does that when `materialize` says so).
 */
export class DeferredSessions {
	private readonly pending = new Map<string, Pending>();

	add(metadata: SessionMetadata): void {
		this.pending.set(metadata.id, { created: cloneMetadata(metadata), metadata, records: [], lines: [] });
	}

	has(id: string): boolean {
		return this.pending.has(id);
	}

	get(id: string): { metadata: SessionMetadata; records: SessionRecord[] } | undefined {
		const entry = this.pending.get(id);
		return entry ? { metadata: cloneMetadata(entry.metadata), records: [...entry.records] } : undefined;
	}

	delete(id: string): boolean {
		return this.pending.delete(id);
	}

	/** Takes a deferred session out of memory to be stored. */
	take(id: string): Pending | undefined {
		const entry = this.pending.get(id);
		this.pending.delete(id);
		return entry;
	}

	/** Validates and holds a batch; `materialize` when the batch holds an assistant message. */
	append(id: string, inputs: readonly RecordInput[], now: Date): { result: AppendResult; materialize: boolean } {
		const entry = this.pending.get(id);
		if (!entry) throw new Error(`session ${id} is not deferred`);
		const records = prepareBatch(entry.metadata, inputs, now.toISOString());
		const metadata = cloneMetadata(entry.metadata);
		for (const record of records) applyRecord(metadata, record);
		const lines = records.map(serializeRecord);
		metadata.logBytes = entry.metadata.logBytes + lineBytes(lines);
		entry.metadata = metadata;
		entry.records.push(...records);
		entry.lines.push(...lines);
		const materialize = records.some((record) => record.recordType === "message" && record.role === "assistant");
		return { result: { records, metadata: cloneMetadata(metadata) }, materialize };
	}
}
