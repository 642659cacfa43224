import { type RecordProblem, type StoredRecord, serializeRecord } from "@agent/session-format/reading";

/** A record as --json prints it: exactly the object of its line in the log (opaque ones included). */
export function recordJson(record: StoredRecord): unknown {
	return record.recordType === "opaque" ? JSON.parse(serializeRecord(record)) : record;
}

/** A line a reader skipped, as a warning for stderr. */
export function problemWarning(problem: RecordProblem): string {
	return `warning: line ${problem.line} (byte offset ${problem.byteOffset}) ${problem.code === "OPAQUE_RECORD" ? "kept opaque" : "skipped"}: ${problem.reason}`;
}
