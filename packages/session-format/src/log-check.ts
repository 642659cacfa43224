import type { SessionMetadata } from "./metadata.js";
import { compareMetadata, type StoredMetadata } from "./metadata-compare.js";
import { MetadataRebuild } from "./metadata-rebuild.js";
import { parentSeqOf } from "./record-kinds.js";
import type { DamageAckRecord, RecordInput, StoredRecord } from "./records.js";
import type { VerifyProblem, VerifyReport } from "./store-contract.js";
import { truncateText } from "./text-cut.js";
import { gapAcknowledged, unportableTextProblem, verifyPasses } from "./verify-rules.js";

/**
 * One line of a log as a store hands it to checkLog, in log order. `end` is where the line ends,
 * its newline included; absent when it has no newline (the last line of a file). A store of rows
 * gives a row's seq as its line number and 0 as its byte offset.
 */
export type CheckedLine =
	| {
			kind: "record";
			record: StoredRecord;
			line: number;
			byteOffset: number;
			/** Why the record is kept opaque (a newer schemaVersion, an unknown recordType). */
			opaque?: string;
			end?: number;
	  }
	| { kind: "damaged"; torn: boolean; reason: string; line: number; byteOffset: number; end?: number }
	| { kind: "blank"; end?: number };

/** A damaged line in the middle of the log, as repair acknowledges it (a damage_ack record). */
export interface DamagedLine {
	line: number;
	byteOffset: number;
	reason: string;
	/** The seqs missing around it (it held one of them), when it falls in a seq gap. */
	seqs?: { from: number; to: number };
}

/** What checkLog found. */
export interface LogCheck {
	report: VerifyReport;
	/** The metadata the log says (absent when the log could not be read at all). */
	rebuilt?: SessionMetadata;
	/** Damaged lines in the middle of the log that no damage_ack record acknowledges yet. */
	unacknowledged: DamagedLine[];
}

export interface LogFacts {
	/** What a rebuild starts from for facts an old log keeps only in its cache (MetadataRebuild). */
	rebuildFrom: SessionMetadata | undefined;
	/** The store's cached metadata, compared with what the log says. */
	cached: StoredMetadata;
	/** The bytes the log takes (a file's size, a torn tail included); default: where its last whole line ends. */
	bytes?: number;
}

interface Problem extends VerifyProblem {
	/** For a seq gap: the seqs missing. For a dangling parent: the parent missing. */
	missing?: { from: number; to: number };
	/** For a seq gap: the damaged lines between the two records. */
	between?: DamagedLine[];
}

/**
 * The log checker behind every store's `verify`: reads the lines of one log once, in order, and
 * reports every problem with its line and byte offset — torn tail, damaged lines, opaque records,
 * text another store cannot keep, seq gaps and duplicates, dangling parentSeq, a compaction whose
 * firstKeptSeq is not on its path, and cached metadata that drifted from the log. A damaged line
 * that a damage_ack record acknowledges — and the seq gap and dangling parents it causes — is
 * still reported, marked `acknowledged`, and no longer fails the check. Pure (the store reads);
 * memory: two numbers per record (the tree's parent links), never the records themselves.
 */
export async function checkLog(
	id: string,
	lines: Iterable<CheckedLine> | AsyncIterable<CheckedLine>,
	facts: LogFacts,
): Promise<LogCheck> {
	const problems: Problem[] = [];
	const rebuild = new MetadataRebuild(id, facts.rebuildFrom);
	const parents = new Map<number, number | null>();
	const compactions: Array<{ seq: number; firstKeptSeq: number; line: number; byteOffset: number }> = [];
	const damaged: DamagedLine[] = [];
	const acks: DamageAckRecord[] = [];
	let damagedSincePrevious: DamagedLine[] = [];
	let records = 0;
	let previousSeq = 0;
	let logBytes = 0;
	for await (const entry of lines) {
		if (entry.end !== undefined) logBytes = entry.end;
		if (entry.kind === "blank") continue;
		const where = { line: entry.line, byteOffset: entry.byteOffset };
		if (entry.kind === "damaged") {
			problems.push({
				kind: entry.torn ? "torn_tail" : "corrupt_line",
				...where,
				message: `line ${entry.line}: ${entry.reason}`,
			});
			if (!entry.torn) {
				const line = { ...where, reason: entry.reason };
				damaged.push(line);
				damagedSincePrevious.push(line);
			}
			continue;
		}
		const { record } = entry;
		records++;
		if (entry.opaque !== undefined)
			problems.push({ kind: "opaque_record", ...where, seq: record.seq, message: entry.opaque });
		const unportable = unportableTextProblem(record, where);
		if (unportable) problems.push(unportable);
		if (record.recordType === "damage_ack") acks.push(record);
		if (record.seq > previousSeq + 1) {
			const missing = record.seq - previousSeq - 1;
			for (const line of damagedSincePrevious) line.seqs = { from: previousSeq + 1, to: record.seq - 1 };
			problems.push({
				kind: "seq_gap",
				...where,
				seq: record.seq,
				message: `seq ${record.seq} follows seq ${previousSeq}: ${missing} seq${missing === 1 ? " is" : "s are"} missing`,
				missing: { from: previousSeq + 1, to: record.seq - 1 },
				between: damagedSincePrevious,
			});
		} else if (record.seq <= previousSeq) {
			problems.push({
				kind: "seq_duplicate",
				...where,
				seq: record.seq,
				message: parents.has(record.seq)
					? `seq ${record.seq} appears again (the later line wins)`
					: `seq ${record.seq} comes after seq ${previousSeq}`,
			});
		}
		damagedSincePrevious = [];
		previousSeq = Math.max(previousSeq, record.seq);
		const parent = parentSeqOf(record);
		if (parent !== null && !parents.has(parent)) {
			problems.push({
				kind: "dangling_parent",
				...where,
				seq: record.seq,
				message: `seq ${record.seq} names parent ${parent}, which is not an earlier readable record`,
				missing: { from: parent, to: parent },
			});
		}
		parents.set(record.seq, parent);
		if (record.recordType === "compaction") {
			compactions.push({ seq: record.seq, firstKeptSeq: record.firstKeptSeq, ...where });
		}
		rebuild.apply(record);
	}
	for (const compaction of compactions) {
		if (!keepsFromPath(parents, compaction.seq, compaction.firstKeptSeq)) {
			problems.push({
				kind: "compaction_off_path",
				line: compaction.line,
				byteOffset: compaction.byteOffset,
				seq: compaction.seq,
				message: `compaction ${compaction.seq} keeps from seq ${compaction.firstKeptSeq}, which is not on its path; the context keeps nothing from before it`,
			});
		}
	}
	const rebuilt = rebuild.finish(logBytes);
	problems.push(...compareMetadata(facts.cached, rebuilt));
	const acknowledged = new Set(acks.map(keyOf));
	markAcknowledged(problems, acknowledged, acks);
	const report: VerifyReport = {
		sessionId: id,
		ok: verifyPasses(problems),
		problems: problems.map(({ missing: _missing, between: _between, ...problem }) => problem),
		records,
		bytes: facts.bytes ?? logBytes,
	};
	return { report, rebuilt, unacknowledged: damaged.filter((line) => !acknowledged.has(keyOf(line))) };
}

/** The check of a session that could not be read at all (what is wrong is `problem`). */
export function unreadableLog(sessionId: string, problem: VerifyProblem): LogCheck {
	return { report: { sessionId, ok: false, problems: [problem], records: 0, bytes: 0 }, unacknowledged: [] };
}

function keyOf(line: { line?: number; byteOffset?: number }): string {
	return `${line.line}@${line.byteOffset}`;
}

/**
 * Marks what acknowledged damage explains: the damaged lines themselves, a seq gap whose every
 * damaged line in between is acknowledged (or, in a copy of a repaired log, where the damaged line
 * stayed behind, one a damage_ack record names: gapAcknowledged), and a parent missing because it
 * fell in such a gap.
 */
function markAcknowledged(
	problems: Problem[],
	acknowledged: ReadonlySet<string>,
	acks: readonly DamageAckRecord[],
): void {
	const explained: Array<{ from: number; to: number }> = [];
	for (const problem of problems) {
		if (problem.kind === "corrupt_line" && acknowledged.has(keyOf(problem))) {
			problem.acknowledged = true;
		} else if (problem.kind === "seq_gap" && problem.between && problem.missing) {
			const explainedHere =
				problem.between.length > 0
					? problem.between.every((line) => acknowledged.has(keyOf(line)))
					: gapAcknowledged(problem.missing, acks);
			if (explainedHere) {
				problem.acknowledged = true;
				explained.push(problem.missing);
			}
		}
	}
	for (const problem of problems) {
		if (problem.kind !== "dangling_parent" || !problem.missing) continue;
		const parent = problem.missing.from;
		if (explained.some((range) => parent >= range.from && parent <= range.to)) problem.acknowledged = true;
	}
}

/** True when firstKeptSeq is an ancestor of the compaction (or the compaction itself: it keeps nothing before it). */
function keepsFromPath(parents: ReadonlyMap<number, number | null>, seq: number, firstKeptSeq: number): boolean {
	if (firstKeptSeq === seq) return true;
	let current: number | null | undefined = parents.get(seq);
	while (current !== null && current !== undefined && current >= firstKeptSeq) {
		if (current === firstKeptSeq) return true;
		current = parents.get(current);
	}
	return false;
}

/** The damage_ack records repair appends for damaged lines no record acknowledges yet. */
export function damageAcks(lines: readonly DamagedLine[]): RecordInput[] {
	return lines.map((line) => ({
		recordType: "damage_ack",
		line: line.line,
		byteOffset: line.byteOffset,
		reason: truncateText(line.reason, 500),
		...(line.seqs ? { seqs: line.seqs } : {}),
	}));
}

/** Repair's report from the check after it: what repair fixes (the cached metadata) no longer counts against it. */
export function repairedReport(report: VerifyReport, acknowledged: number): VerifyReport {
	const repaired: VerifyReport = { ...report, repaired: true };
	if (acknowledged > 0) repaired.acknowledged = acknowledged;
	repaired.problems = report.problems.filter((problem) => !problem.kind.startsWith("metadata_"));
	repaired.ok = verifyPasses(repaired.problems);
	return repaired;
}
