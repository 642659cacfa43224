import type { SessionMetadata, StoredRecord } from "@agent/session-format";

/** A session's records, readable more than once (an exporter may read twice: once for the tree, once to render). */
export type RecordSource = () => AsyncIterable<StoredRecord> | Iterable<StoredRecord>;

/** What exporters need to know about the session besides its records. */
export type ExportInfo = Pick<SessionMetadata, "id" | "createdAt"> &
	Partial<Pick<SessionMetadata, "name" | "model" | "leafSeq" | "lastSeq" | "importedFrom" | "lastMessageAt" | "cwd">>;

/** A record source over an array (tests, small sessions, records already in memory). */
export function recordsFrom(records: readonly StoredRecord[]): RecordSource {
	return () => records;
}
