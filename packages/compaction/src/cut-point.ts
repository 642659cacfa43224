import type { StoredRecord } from "@agent/session-format/reading";
import { estimateRecordTokens } from "./tokens.js";

export interface CutPoint {
	/** Index in the path of the first record kept. */
	index: number;
	/** Its seq: the compaction's firstKeptSeq. */
	seq: number;
	/** True when the cut falls inside a turn (the first kept record is not where a turn starts). */
	isSplitTurn: boolean;
	/** With a split turn: the index of the user message that started the turn; else -1. */
	turnStartIndex: number;
	/** Estimated tokens of the records kept (from `index` to the end of the range). */
	keptTokens: number;
}

export interface CutPointRange {
	/** First index considered (default 0). */
	start?: number;
	/** One past the last index considered (default: the path's length). */
	end?: number;
}

/**
 * Which records of `path[start..end)` may be the first record kept (spec §7.5.3 step 2): user
 * and assistant messages, custom messages, branch summaries and compaction records, and only
 * where no tool call before them still waits for a result at or after them (S7.13). A tool
 * result is never one. Returns one flag per index of the range.
 */
export function validCutPoints(path: readonly StoredRecord[], range: CutPointRange = {}): boolean[] {
	const start = range.start ?? 0;
	const end = range.end ?? path.length;
	const size = Math.max(0, end - start);
	const open = new Array<number>(size + 1).fill(0);
	const callIndex = new Map<string, number>();
	for (let i = start; i < end; i++) {
		const record = path[i] as StoredRecord;
		if (record.recordType !== "message") continue;
		if (record.role === "assistant") {
			for (const block of record.content) if (block.type === "toolCall") callIndex.set(block.id, i);
		} else if (record.role === "toolResult") {
			const call = record.toolCallId === undefined ? undefined : callIndex.get(record.toolCallId);
			// Every index after the call, up to and including the result, would cut the pair apart.
			// A result whose call is not in the range pins everything up to it.
			const from = call === undefined ? start : call + 1;
			(open[from - start] as number)++;
			(open[i + 1 - start] as number)--;
		}
	}
	const valid: boolean[] = [];
	let pending = 0;
	for (let i = start; i < end; i++) {
		pending += open[i - start] as number;
		valid.push(pending === 0 && isBoundaryRecord(path[i] as StoredRecord));
	}
	return valid;
}

/**
 * Spec §7.5.3 step 1: walk back from the newest record, adding estimated tokens, until they
 * reach `keepRecentTokens`; the cut is the nearest valid cut point at or after that record (or,
 * when none is, the nearest one before it, which keeps more). When the range holds fewer
 * tokens than `keepRecentTokens`, the cut is at the first valid point: everything is kept.
 * Undefined when the range has no valid cut point at all.
 */
export function findCutPoint(
	path: readonly StoredRecord[],
	keepRecentTokens: number,
	range: CutPointRange = {},
): CutPoint | undefined {
	const start = range.start ?? 0;
	const end = range.end ?? path.length;
	const valid = validCutPoints(path, { start, end });
	if (!valid.includes(true)) return undefined;

	let boundary = start;
	let accumulated = 0;
	for (let i = end - 1; i >= start; i--) {
		accumulated += estimateRecordTokens(path[i] as StoredRecord);
		if (accumulated >= keepRecentTokens) {
			boundary = i;
			break;
		}
	}

	let index = -1;
	for (let i = boundary; i < end; i++) {
		if (valid[i - start]) {
			index = i;
			break;
		}
	}
	if (index < 0) {
		for (let i = boundary - 1; i >= start; i--) {
			if (valid[i - start]) {
				index = i;
				break;
			}
		}
	}

	const record = path[index] as StoredRecord;
	// A compaction record in the range is not in the conversation: look at what follows it.
	let first = index;
	while (first < end && !isContextRecord(path[first] as StoredRecord)) first++;
	let turnStartIndex = -1;
	if (first < end && !startsTurn(path[first] as StoredRecord)) {
		for (let i = index - 1; i >= start; i--) {
			if (startsTurn(path[i] as StoredRecord)) {
				turnStartIndex = i;
				break;
			}
		}
	}
	let keptTokens = 0;
	for (let i = index; i < end; i++) keptTokens += estimateRecordTokens(path[i] as StoredRecord);
	return { index, seq: record.seq, isSplitTurn: turnStartIndex >= 0, turnStartIndex, keptTokens };
}

function isBoundaryRecord(record: StoredRecord): boolean {
	switch (record.recordType) {
		case "message":
			return record.role !== "toolResult";
		case "custom_message":
		case "branch_summary":
		case "compaction":
			return true;
		default:
			return false;
	}
}

/** Where a turn begins: a user message, or a branch summary (it stands in for a whole branch). */
function startsTurn(record: StoredRecord): boolean {
	if (record.recordType === "message") return record.role === "user";
	return record.recordType === "branch_summary";
}

/** Records the LLM sees. */
function isContextRecord(record: StoredRecord): boolean {
	return (
		record.recordType === "message" || record.recordType === "custom_message" || record.recordType === "branch_summary"
	);
}
