import type { SessionMetadata } from "./metadata.js";
import { applyRecord, cloneMetadata } from "./metadata-derive.js";
import type { SessionRecord } from "./records.js";
import { serializeRecord } from "./serialize.js";

/** A deferred session as a store holds it in memory: what it was created with, and what it has now. */
export interface HeldSession {
	created: SessionMetadata;
	metadata: SessionMetadata;
	records: SessionRecord[];
	/** The records as lines of session.jsonl (without newlines), ready to be written out. */
	lines: string[];
}

const utf8 = new TextEncoder();

/**
 * Deferred persistence (pi-style), shared by every store: a session created with `deferred: true`
 * lives in this store instance's memory until its first assistant message, so a session abandoned
 * before the model ever answered leaves nothing behind. The store writes it out (all at once) when
 * `hold` says the batch holds the first reply, or when another operation needs it stored.
 */
export class DeferredSessions {
	private readonly sessions = new Map<string, HeldSession>();

	add(metadata: SessionMetadata): void {
		this.sessions.set(metadata.id, { created: cloneMetadata(metadata), metadata, records: [], lines: [] });
	}

	has(id: string): boolean {
		return this.sessions.has(id);
	}

	/** A snapshot of a deferred session: its metadata and records (copies callers may keep). */
	get(id: string): { metadata: SessionMetadata; records: SessionRecord[] } | undefined {
		const entry = this.sessions.get(id);
		return entry ? { metadata: cloneMetadata(entry.metadata), records: [...entry.records] } : undefined;
	}

	delete(id: string): boolean {
		return this.sessions.delete(id);
	}

	/** Takes a deferred session out of memory to be written out; `restore` it if the write fails. */
	take(id: string): HeldSession | undefined {
		const entry = this.sessions.get(id);
		this.sessions.delete(id);
		return entry;
	}

	/** Holds a taken session again (its write failed): nothing it held is lost. */
	restore(entry: HeldSession): void {
		this.sessions.set(entry.metadata.id, entry);
	}

	/**
	 * Holds a batch, validated against the held session by `prepare` (the store's prepareBatch, as
	 * an append would; passed in so that this module, which every store loads, does not load the
	 * record schemas). `firstReply`: the batch holds an assistant message, so the store writes the
	 * session out now.
	 */
	hold(
		id: string,
		prepare: (metadata: SessionMetadata) => SessionRecord[],
	): { records: SessionRecord[]; metadata: SessionMetadata; firstReply: boolean } {
		const entry = this.sessions.get(id);
		if (!entry) throw new Error(`session ${id} is not deferred`);
		const records = prepare(entry.metadata);
		const metadata = cloneMetadata(entry.metadata);
		for (const record of records) applyRecord(metadata, record);
		const lines = records.map(serializeRecord);
		for (const line of lines) metadata.logBytes += utf8.encode(line).length + 1;
		entry.metadata = metadata;
		entry.records.push(...records);
		entry.lines.push(...lines);
		const firstReply = records.some((record) => record.recordType === "message" && record.role === "assistant");
		return { records, metadata: cloneMetadata(metadata), firstReply };
	}
}
