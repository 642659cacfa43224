import type { StoredRecord } from "./records.js";

/**
 * One record as one line of JSON, without the newline. The line holds no raw LF or CR (JSON
 * escapes them) and no raw U+0085, U+2028 or U+2029 either (escaped here), so no line-splitting
 * reader breaks it. An opaque record read from a line and not renumbered is written back
 * exactly as it was read.
 */
export function serializeRecord(record: StoredRecord): string {
	if (record.recordType === "opaque") {
		const original = record.original;
		const sameParent =
			record.parentSeq === undefined ? !("parentSeq" in original) : original.parentSeq === record.parentSeq;
		if (record.line !== undefined && original.seq === record.seq && sameParent) return record.line;
		const out: Record<string, unknown> = { ...original, seq: record.seq };
		if (record.parentSeq !== undefined) out.parentSeq = record.parentSeq;
		return escapeLineBreaks(JSON.stringify(out));
	}
	return escapeLineBreaks(JSON.stringify(record));
}

/** One record as one line of JSON, with its newline: what a store appends. */
export function recordLine(record: StoredRecord): string {
	return `${serializeRecord(record)}\n`;
}

const UNICODE_BREAKS = /[\u0085\u2028\u2029]/g;

function escapeLineBreaks(json: string): string {
	// These characters can only occur inside JSON strings, where \uXXXX means the same thing.
	// indexOf, not a regex test: a memchr-like scan (and none at all for U+2028/U+2029 in a
	// one-byte string), several times cheaper on every line an append writes.
	const found = json.indexOf("\u0085") !== -1 || json.indexOf("\u2028") !== -1 || json.indexOf("\u2029") !== -1;
	return found ? json.replace(UNICODE_BREAKS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) : json;
}
