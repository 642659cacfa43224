import type { SessionMetadata } from "./metadata.js";
import { applyLegacyCreationFacts, applyLegacyRunningFacts, applyRecord, rebuildBase } from "./metadata-derive.js";
import type { StoredRecord } from "./records.js";

/**
 * Metadata rebuilt from a whole log, replayed from its first line: everything comes from the
 * records. A log written before session headers existed (its first record carries none) kept some
 * facts only in its metadata.json; when an old copy is readable, those are taken from it, as a
 * store did then; a session with no record yet takes them from the facts it was created with
 * (every store backend rebuilds through this (see applyLegacyCreationFacts and applyLegacyRunningFacts).
 */
export class MetadataRebuild {
	readonly metadata: SessionMetadata;
	private applied = 0;
	private legacy = false;

	constructor(
		id: string,
		private readonly old: SessionMetadata | undefined,
	) {
		this.metadata = rebuildBase(id);
	}

	/** Folds the next record of the log (in log order). */
	apply(record: StoredRecord): void {
		if (this.applied === 0 && this.old && !hasHeader(record)) {
			applyLegacyCreationFacts(this.metadata, this.old);
			this.legacy = true;
		}
		applyRecord(this.metadata, record);
		this.applied++;
	}

	/** The rebuilt metadata, once every record was applied. */
	finish(logBytes: number): SessionMetadata {
		const { metadata, old } = this;
		metadata.logBytes = logBytes;
		if (old && (this.legacy || this.applied === 0)) {
			// A session with no record yet has its creation facts in metadata.json only.
			if (this.applied === 0) applyLegacyCreationFacts(metadata, old);
			applyLegacyRunningFacts(metadata, old);
			// An old log's leaf moved by "branch" lived only in metadata.json: kept while it still describes this log.
			if (old.leafSeq !== undefined && old.lastSeq === metadata.lastSeq && metadata.leafSeq === undefined) {
				metadata.leafSeq = old.leafSeq;
			}
		}
		return metadata;
	}
}

/** True for the first record of a log that carries the session header. */
export function hasHeader(record: StoredRecord): boolean {
	return record.seq === 1 && record.recordType !== "opaque" && record.session !== undefined;
}
