/**
 * The kinds of records and their fixed vocabularies, as plain values: what reading needs. The zod
 * schemas (records.ts) are built from these lists, and loaded only by what validates with them,
 * so that a command that only reads never loads zod.
 */

/** The schema version this library writes. Lines with a higher version are kept opaque. */
export const CURRENT_SCHEMA_VERSION = 1;

export const STOP_REASONS = ["stop", "length", "toolUse", "error", "aborted"] as const;
export const MESSAGE_ROLES = ["user", "assistant", "toolResult"] as const;
export const COMPACTION_TRIGGERS = ["threshold", "overflow", "manual"] as const;
/**
 * "interrupted": accepted, then lost with the process running it (recorded when the session was next
 * leased), or stopped by its process stopping. "timed_out": stopped at a deadline (the turn's, or a
 * model call's without progress).
 */
export const TURN_OUTCOMES = ["completed", "failed", "cancelled", "interrupted", "timed_out"] as const;
export const SESSION_SOURCES = ["interactive", "cron"] as const;

const RECORD_TYPE_NAMES = [
	"message",
	"compaction",
	"model_change",
	"thinking_level_change",
	"session_info",
	"label",
	"branch_summary",
	"custom",
	"custom_message",
	"leaf_change",
	"archive_change",
	"uptime",
	"turn",
	"damage_ack",
] as const;

/** The record types this library writes (records.ts checks RecordType, from the schemas, is this union). */
export type KnownRecordType = (typeof RECORD_TYPE_NAMES)[number];

export const RECORD_TYPES: readonly KnownRecordType[] = RECORD_TYPE_NAMES;

/**
 * Side records are about the session, not the conversation: they belong to no branch. They are
 * never tree nodes, never leaves, never on a path, and appending one never creates a branch. A
 * record whose parent is a side record hangs from that side record's own parent. The active
 * leaf after a side record is its parent (resolved the same way): where it was, or, for a
 * `leaf_change`, the leaf it moves to.
 */
export const SIDE_RECORD_TYPES: ReadonlySet<string> = new Set<KnownRecordType>([
	"session_info",
	"label",
	"leaf_change",
	"archive_change",
	"uptime",
	"turn",
	"damage_ack",
]);

/** True for a side record (see SIDE_RECORD_TYPES). Opaque records are tree nodes. */
export function isSideRecord(record: { recordType: string }): boolean {
	return SIDE_RECORD_TYPES.has(record.recordType);
}

/** The record types this library reads and writes (an object with another is kept opaque). */
export const KNOWN_RECORD_TYPES: ReadonlySet<string> = new Set<string>(RECORD_TYPES);

/** The seq of the parent of `record` per the tree rule: absent parentSeq means seq - 1. */
export function parentSeqOf(record: { seq: number; parentSeq?: number | null | undefined }): number | null {
	if (record.parentSeq === undefined) return record.seq > 1 ? record.seq - 1 : null;
	return record.parentSeq;
}
