import type { StoredRecord } from "@agent/session-format/reading";

/** Whether a record has a row of its own in the transcript. */
export function hasRow(record: StoredRecord): boolean {
	switch (record.recordType) {
		case "message":
		case "compaction":
		case "branch_summary":
		case "model_change":
		case "thinking_level_change":
		case "opaque":
			return true;
		case "custom_message":
			return record.display;
		case "session_info":
			return Boolean(record.name);
		default:
			return false;
	}
}
