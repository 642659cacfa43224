import { closeSync, fsyncSync } from "node:fs";
import {
	type AppendResult,
	applyRecord,
	cloneMetadata,
	prepareBatch,
	type RecordInput,
	recordLine,
	type SessionMetadata,
	type SessionRecord,
} from "@agent/session-format";
import { storageFailure } from "./errors.js";
import { writeMetadataFile } from "./metadata-file.js";
import type { ResolvedOptions } from "./options.js";
import type { SessionPaths } from "./paths.js";
import { makePrivateDir } from "./safe-files.js";
import { createLog, makeSessionsRoot, syncNewDirectory } from "./session-files.js";
import { appendAll } from "./write-bytes.js";

interface Pending {
	metadata: SessionMetadata;
	records: SessionRecord[];
}

/**
 * Deferred persistence (pi-style): a session created with `deferred: true` lives in this store
 * instance's memory until its first assistant message, so sessions abandoned before the model
 * ever answered leave nothing on disk. Then everything is written at once, and from there on it
 * is an ordinary session.
 */
export class DeferredSessions {
	private readonly pending = new Map<string, Pending>();

	add(metadata: SessionMetadata): void {
		this.pending.set(metadata.id, { metadata, records: [] });
	}

	has(id: string): boolean {
		return this.pending.has(id);
	}

	/** A snapshot of a deferred session: its metadata and records (copies callers may keep). */
	get(id: string): { metadata: SessionMetadata; records: SessionRecord[] } | undefined {
		const entry = this.pending.get(id);
		return entry ? { metadata: cloneMetadata(entry.metadata), records: [...entry.records] } : undefined;
	}

	delete(id: string): boolean {
		return this.pending.delete(id);
	}

	/** Validates and holds a batch; writes the session out when the batch holds an assistant message. */
	append(paths: SessionPaths, inputs: readonly RecordInput[], options: ResolvedOptions): AppendResult {
		const entry = this.pending.get(paths.id);
		if (!entry) throw new Error(`session ${paths.id} is not deferred`);
		const records = prepareBatch(entry.metadata, inputs, options.now().toISOString());
		const metadata = cloneMetadata(entry.metadata);
		for (const record of records) applyRecord(metadata, record);
		const all = [...entry.records, ...records];
		if (records.some((record) => record.recordType === "message" && record.role === "assistant")) {
			this.materialize(paths, metadata, all, options);
		} else {
			entry.metadata = metadata;
			entry.records = all;
		}
		return { records, metadata: cloneMetadata(metadata) };
	}

	/** Writes a deferred session to disk now (its first assistant message came, or an operation needs files). */
	materialize(
		paths: SessionPaths,
		metadata: SessionMetadata,
		records: readonly SessionRecord[],
		options: ResolvedOptions,
	): void {
		try {
			makeSessionsRoot(options.home);
			makePrivateDir(paths.dir);
		} catch (error) {
			throw storageFailure(`could not create the session directory ${paths.dir}`, error);
		}
		const bytes = Buffer.from(records.map(recordLine).join(""));
		const fd = createLog(paths);
		try {
			appendAll(fd, bytes, 0, `the deferred records of session ${paths.id}`);
			if (options.durability === "fsync") fsyncSync(fd);
		} finally {
			closeSync(fd);
		}
		metadata.logBytes = bytes.length;
		writeMetadataFile(paths.metadata, metadata, options.durability === "fsync");
		syncNewDirectory(paths, options.home, options.durability);
		this.pending.delete(paths.id);
	}

	/** Writes a deferred session out as it stands. */
	flush(paths: SessionPaths, options: ResolvedOptions): void {
		const entry = this.pending.get(paths.id);
		if (entry) this.materialize(paths, entry.metadata, entry.records, options);
	}
}
