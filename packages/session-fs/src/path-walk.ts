import {
	loadSchemaChecks,
	type RecordProblem,
	type StoredRecord,
	schemaChecksLoaded,
} from "@agent/session-format/reading";
import { walkPathDescending } from "@agent/session-format/store-kit";
import { readLinesBackward } from "./backward-reader.js";
import { lineNumberer, type RawLine } from "./line-reader.js";
import { classifyLine, reportProblem } from "./record-reader.js";

export interface BackwardPathOptions {
	leafSeq: number;
	/** Stop at the latest compaction's firstKeptSeq instead of walking on to the root. */
	stopAtCompaction: boolean;
	/** With stopAtCompaction, still reach back to this seq when it lies before the compaction's firstKeptSeq. */
	reachSeq?: number;
	/** Stop once the path has reached back to this seq (its records below it are not needed). */
	floorSeq?: number;
	/** When the leaf's line is unreadable, start from the nearest earlier record instead of returning nothing. */
	leafFallsBack?: boolean;
	end: number;
	chunkBytes?: number;
	/** Longer lines are reported and skipped, not decoded (the store's maxLineBytes). */
	maxLineBytes?: number;
	onProblem?: (problem: RecordProblem) => void;
	/** Sees every record the walk reads, on the path or not (a fork collects the labels this way). */
	onRecord?: (record: StoredRecord, raw: RawLine) => void;
	where: string;
}

export interface BackwardPath<T> {
	/** What `keep` made of each record on the path, root → leaf (side records are never on it). */
	items: T[];
	/** The first record the walk took: the leaf, or the record it fell back to; absent when none was found. */
	start?: { seq: number; side: boolean };
}

/**
 * Walks the path to `leafSeq` from the end of the log backwards, reading only as far as needed
 * (the walk itself is session-format's walkPathDescending, shared with every store): lines are
 * decoded as the walk reaches them, and a damaged one is reported and passed over. A log whose
 * seqs go backwards is corrupt (verify reports it); the walk does not read it all to look further.
 */
export async function walkPathBackward<T>(
	fd: number,
	options: BackwardPathOptions,
	keep: (record: StoredRecord, raw: RawLine) => T,
): Promise<BackwardPath<T>> {
	if (schemaChecksLoaded()) return walkOnce(fd, options, keep);
	// The walk decodes lines in a synchronous callback, where the record schemas cannot be loaded:
	// a line that needs them ends this walk, and it is walked again once they are. What the first
	// walk reported is held until it is known to stand, so nothing is reported twice.
	const held: (() => void)[] = [];
	const holding: BackwardPathOptions = {
		...options,
		onProblem: options.onProblem && ((problem) => held.push(() => options.onProblem?.(problem))),
		onRecord: options.onRecord && ((record, raw) => held.push(() => options.onRecord?.(record, raw))),
	};
	try {
		const walked = await walkOnce(fd, holding, keep);
		for (const report of held) report();
		return walked;
	} catch (error) {
		if (error !== SCHEMAS_NEEDED) throw error;
	}
	await loadSchemaChecks();
	return walkOnce(fd, options, keep);
}

/** Thrown by a walk's decoding when a line needs the record schemas, which are not loaded. */
const SCHEMAS_NEEDED = Symbol("the record schemas are needed");

async function walkOnce<T>(
	fd: number,
	options: BackwardPathOptions,
	keep: (record: StoredRecord, raw: RawLine) => T,
): Promise<BackwardPath<T>> {
	const read = { onProblem: options.onProblem, where: options.where, lineOf: lineNumberer(fd) };
	const decoded = new WeakMap<RawLine, StoredRecord>();
	const recordOf = (raw: RawLine): StoredRecord | undefined => {
		const outcome = classifyLine(raw);
		if (!outcome) throw SCHEMAS_NEEDED;
		if (outcome.kind === "blank") return undefined;
		if (outcome.problem) reportProblem(outcome.problem, read);
		if (outcome.kind !== "record") return undefined;
		options.onRecord?.(outcome.record, raw);
		decoded.set(raw, outcome.record);
		return outcome.record;
	};
	const lines = readLinesBackward(fd, {
		end: options.end,
		chunkBytes: options.chunkBytes,
		maxLineBytes: options.maxLineBytes,
	});
	const walked = await walkPathDescending(lines, recordOf, options);
	const items = walked.items.map((raw) => keep(decoded.get(raw) as StoredRecord, raw));
	return walked.start ? { items, start: walked.start } : { items };
}
