import { closeSync, fstatSync, lstatSync } from "node:fs";
import {
	AgentSessionError,
	type DamageAckRecord,
	gapAcknowledged,
	MetadataRebuild,
	parentSeqOf,
	type SessionMetadata,
	truncateText,
	unportableTextProblem,
	type VerifyProblem,
	type VerifyReport,
	verifyPasses,
} from "@agent/session-format/reading";
import { errnoCode, notFound, storageFailure } from "./errors.js";
import { readLinesForward } from "./line-reader.js";
import { type MetadataRead, readMetadataFile } from "./metadata-file.js";

import type { SessionPaths } from "./paths.js";
import { classifyLine, classifyLineLoading } from "./record-reader.js";
import { openOwnFile, READ_FLAGS } from "./safe-files.js";

/** A damaged line in the middle of the log, as repair acknowledges it. */
export interface DamagedLine {
	line: number;
	byteOffset: number;
	reason: string;
	/** The seqs missing around it (it held one of them), when it falls in a seq gap. */
	seqs?: { from: number; to: number };
}

export interface VerifyOutcome {
	report: VerifyReport;
	/** Metadata rebuilt from the log. */
	rebuilt?: SessionMetadata;
	/** Damaged lines in the middle of the log that no damage_ack record acknowledges yet. */
	unacknowledged: DamagedLine[];
}

interface Problem extends VerifyProblem {
	/** For a seq gap: the seqs missing. For a dangling parent: the parent missing. */
	missing?: { from: number; to: number };
	/** For a seq gap: the damaged lines between the two records. */
	between?: DamagedLine[];
}

/**
 * Reads the whole log once and reports every problem with its line and byte offset: torn tail,
 * corrupt lines, opaque records, seq gaps and duplicates, dangling parentSeq, a compaction whose
 * firstKeptSeq is not on its path, metadata that drifted from the log, and files or directories
 * that are not what the store makes (a symbolic link, a FIFO). A damaged line that a damage_ack
 * record acknowledges — and the seq gap and dangling parents it causes — is still reported, marked
 * `acknowledged`, and no longer fails the check. Memory: two numbers per record (the tree's
 * parent links), never the records themselves.
 */
export async function verifySession(
	paths: SessionPaths,
	options: { chunkBytes?: number; maxLineBytes?: number } = {},
): Promise<VerifyOutcome> {
	const directory = directoryProblem(paths);
	if (directory) return { report: failed(paths.id, [directory]), unacknowledged: [] };
	const stored = await readMetadataFile(paths.metadata, paths.id);
	let fd: number | undefined;
	try {
		fd = openOwnFile(paths.log, READ_FLAGS);
	} catch (error) {
		if (errnoCode(error) === "ENOENT") {
			if (stored.state === "missing") throw notFound(paths.id);
		} else if (error instanceof AgentSessionError) {
			// Not a regular file (a symbolic link, a FIFO...): reported, never read through.
			const message = (error as Error).message;
			return { report: failed(paths.id, [{ kind: "not_a_regular_file", message }]), unacknowledged: [] };
		} else {
			throw storageFailure(`could not open ${paths.log}`, error);
		}
	}
	try {
		const problems: Problem[] = [];
		const rebuild = new MetadataRebuild(paths.id, stored.state === "ok" ? stored.metadata : undefined);
		const parents = new Map<number, number | null>();
		const compactions: Array<{ seq: number; firstKeptSeq: number; line: number; byteOffset: number }> = [];
		const damaged: DamagedLine[] = [];
		const acknowledged = new Set<string>();
		const acks: DamageAckRecord[] = [];
		let damagedSincePrevious: DamagedLine[] = [];
		let records = 0;
		let previousSeq = 0;
		let bytes = 0;
		let logBytes = 0;
		if (fd !== undefined) {
			bytes = fstatSync(fd).size;
			for await (const batch of readLinesForward(fd, {
				end: bytes,
				chunkBytes: options.chunkBytes,
				maxLineBytes: options.maxLineBytes,
			})) {
				for (const raw of batch) {
					if (raw.terminated) logBytes = raw.byteOffset + raw.byteLength + 1;
					const outcome = classifyLine(raw) ?? (await classifyLineLoading(raw));
					if (outcome.kind === "blank") continue;
					const where = { line: raw.line, byteOffset: raw.byteOffset };
					if (outcome.kind === "problem") {
						const torn = outcome.problem.code === "TORN_TAIL";
						problems.push({
							kind: torn ? "torn_tail" : "corrupt_line",
							...where,
							message: `line ${raw.line}: ${outcome.problem.reason}`,
						});
						if (!torn) {
							const line = { ...where, reason: outcome.problem.reason };
							damaged.push(line);
							damagedSincePrevious.push(line);
						}
						continue;
					}
					const record = outcome.record;
					records++;
					if (outcome.problem) {
						problems.push({ kind: "opaque_record", ...where, seq: record.seq, message: outcome.problem.reason });
					}
					const unportable = unportableTextProblem(record, where);
					if (unportable) problems.push(unportable);
					if (record.recordType === "damage_ack") {
						acknowledged.add(keyOf(record));
						acks.push(record);
					}
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
			}
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
		problems.push(...metadataProblems(stored, rebuilt));
		markAcknowledged(problems, acknowledged, acks);
		const ok = verifyPasses(problems);
		const report: VerifyReport = {
			sessionId: paths.id,
			ok,
			problems: problems.map(({ missing: _missing, between: _between, ...problem }) => problem),
			records,
			bytes,
		};
		return { report, rebuilt, unacknowledged: damaged.filter((line) => !acknowledged.has(keyOf(line))) };
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
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

function failed(sessionId: string, problems: VerifyProblem[]): VerifyReport {
	return { sessionId, ok: false, problems, records: 0, bytes: 0 };
}

/** A session directory that is a symbolic link (or not a directory) is reported, never read through. */
function directoryProblem(paths: SessionPaths): VerifyProblem | undefined {
	let isLink = false;
	try {
		const stats = lstatSync(paths.dir);
		if (stats.isDirectory()) return undefined;
		isLink = stats.isSymbolicLink();
	} catch (error) {
		if (errnoCode(error) === "ENOENT") return undefined;
		throw storageFailure(`could not look at ${paths.dir}`, error);
	}
	return {
		kind: "not_a_regular_file",
		message: `the session directory is ${isLink ? "a symbolic link" : "not a directory"}; the store never reads or writes through it. Remove it, or move the real directory in its place`,
	};
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

const COMPARED = [
	"lastSeq",
	"logBytes",
	"messageCount",
	"createdAt",
	"lastMessageAt",
	"model",
	"name",
	"source",
	"cronJobId",
	"systemPromptOverride",
	"identityKey",
	"cwd",
	"createdBy",
	"importedFrom",
	"forkedFrom",
	"archivedAt",
	"uptimeSeconds",
	"thinkingLevel",
	"compactionCount",
	"metrics",
	"leafSeq",
] as const satisfies ReadonlyArray<keyof SessionMetadata>;

function metadataProblems(stored: MetadataRead, rebuilt: SessionMetadata): VerifyProblem[] {
	if (stored.state === "missing") {
		return [{ kind: "metadata_missing", message: "metadata.json is missing; repair rebuilds it from the log" }];
	}
	if (stored.state === "invalid") {
		return [{ kind: "metadata_drift", message: `metadata.json is damaged (${stored.reason}); repair rebuilds it` }];
	}
	const problems: VerifyProblem[] = [];
	for (const key of COMPARED) {
		const have = stableJson(stored.metadata[key]);
		const want = stableJson(rebuilt[key]);
		if (have !== want) {
			problems.push({
				kind: "metadata_drift",
				message: `metadata.json has ${key} ${clipValue(have)} but the log says ${clipValue(want)}; repair rewrites it`,
			});
		}
	}
	return problems;
}

function clipValue(json: string | undefined): string {
	if (json === undefined) return "unset";
	return truncateText(json, 121);
}

/** JSON with object keys sorted, so two equal values compare equal whatever order their keys were added in. */
function stableJson(value: unknown): string | undefined {
	return JSON.stringify(value, (_key, inner: unknown) =>
		inner && typeof inner === "object" && !Array.isArray(inner)
			? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
			: inner,
	);
}
