import {
	type CompactionRecord,
	type ContextMessage,
	contextMessageOf,
	type StoredRecord,
} from "@agent/session-format/reading";

/**
 * The part of a path a new compaction may summarize or keep: what the context holds besides
 * the latest summary. With a previous compaction that is the messages it kept (from its
 * firstKeptSeq up to it) and everything after it; the messages before its firstKeptSeq are
 * already in its summary and are never summarized again.
 */
export interface CompactionRegion {
	/** First index of the region in the path. */
	start: number;
	/** One past the last index (the path's length). */
	end: number;
	/** The latest compaction on the path, if any, and its index. */
	previous?: CompactionRecord;
	previousIndex: number;
}

/** Finds the region of `path` (root → leaf, or a suffix starting at the latest firstKeptSeq). */
export function findCompactionRegion(path: readonly StoredRecord[]): CompactionRegion {
	let previousIndex = -1;
	for (let i = path.length - 1; i >= 0; i--) {
		if ((path[i] as StoredRecord).recordType === "compaction") {
			previousIndex = i;
			break;
		}
	}
	if (previousIndex < 0) return { start: 0, end: path.length, previousIndex };
	const previous = path[previousIndex] as CompactionRecord;
	// As in context building: a firstKeptSeq not found before the compaction keeps nothing.
	let start = previousIndex + 1;
	for (let i = 0; i < previousIndex; i++) {
		if ((path[i] as StoredRecord).seq === previous.firstKeptSeq) {
			start = i;
			break;
		}
	}
	return { start, end: path.length, previous, previousIndex };
}

/**
 * The context messages the records of `path[from..to)` contribute, as context building makes
 * them: messages as they are, custom messages and branch summaries as user messages; every
 * other record (compactions included) contributes nothing.
 */
export function contextMessagesOf(path: readonly StoredRecord[], from: number, to: number): ContextMessage[] {
	const out: ContextMessage[] = [];
	for (let i = from; i < to; i++) {
		const message = contextMessageOf(path[i] as StoredRecord);
		if (message) out.push(message);
	}
	return out;
}

/** The file lists carried by branch summaries among `path[from..to)`. */
export function branchSummaryFilesOf(
	path: readonly StoredRecord[],
	from: number,
	to: number,
): Array<{ readFiles?: string[]; modifiedFiles?: string[] }> {
	const out: Array<{ readFiles?: string[]; modifiedFiles?: string[] }> = [];
	for (let i = from; i < to; i++) {
		const record = path[i] as StoredRecord;
		if (record.recordType !== "branch_summary") continue;
		const files: { readFiles?: string[]; modifiedFiles?: string[] } = {};
		if (record.readFiles) files.readFiles = record.readFiles;
		if (record.modifiedFiles) files.modifiedFiles = record.modifiedFiles;
		out.push(files);
	}
	return out;
}
