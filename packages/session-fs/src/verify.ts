import { closeSync, fstatSync, openSync } from "node:fs";
import { parentSeqOf, type SessionMetadata, type VerifyProblem, type VerifyReport } from "@agent/session-format";
import { errnoCode, notFound, storageFailure } from "./errors.js";
import { readLinesForward } from "./line-reader.js";
import { applyRecord, rebuildBase } from "./metadata-derive.js";
import { type MetadataRead, readMetadataFile } from "./metadata-file.js";
import type { SessionPaths } from "./paths.js";
import { classifyLine } from "./record-reader.js";

export interface VerifyOutcome {
	report: VerifyReport;
	/** Metadata rebuilt from the log, keeping what the log cannot tell from the old metadata. */
	rebuilt: SessionMetadata;
}

/**
 * Reads the whole log once and reports every problem with its line and byte offset: torn tail,
 * corrupt lines, opaque records, seq gaps and duplicates, dangling parentSeq, a compaction whose
 * firstKeptSeq is not on its path, and metadata that drifted from the log. Memory: two numbers
 * per record (the tree's parent links), never the records themselves.
 */
export async function verifySession(paths: SessionPaths, chunkBytes?: number): Promise<VerifyOutcome> {
	const stored = readMetadataFile(paths.metadata, paths.id);
	let fd: number | undefined;
	try {
		fd = openSync(paths.log, "r");
	} catch (error) {
		if (errnoCode(error) !== "ENOENT") throw storageFailure(`could not open ${paths.log}`, error);
		if (stored.state === "missing") throw notFound(paths.id);
	}
	try {
		const problems: VerifyProblem[] = [];
		const rebuilt = rebuildBase(paths.id, stored.state === "ok" ? stored.metadata : undefined);
		const parents = new Map<number, number | null>();
		const compactions: Array<{ seq: number; firstKeptSeq: number; line: number; byteOffset: number }> = [];
		let records = 0;
		let previousSeq = 0;
		let bytes = 0;
		if (fd !== undefined) {
			bytes = fstatSync(fd).size;
			for await (const batch of readLinesForward(fd, { end: bytes, chunkBytes })) {
				for (const raw of batch) {
					if (raw.terminated) rebuilt.logBytes = raw.byteOffset + raw.byteLength + 1;
					const outcome = classifyLine(raw);
					if (outcome.kind === "blank") continue;
					const where = { line: raw.line, byteOffset: raw.byteOffset };
					if (outcome.kind === "problem") {
						const kind = outcome.problem.code === "TORN_TAIL" ? "torn_tail" : "corrupt_line";
						problems.push({ kind, ...where, message: `line ${raw.line}: ${outcome.problem.reason}` });
						continue;
					}
					const record = outcome.record;
					records++;
					if (outcome.problem) {
						problems.push({ kind: "opaque_record", ...where, seq: record.seq, message: outcome.problem.reason });
					}
					if (record.seq === previousSeq + 1) {
						// the normal case
					} else if (record.seq > previousSeq + 1) {
						const missing = record.seq - previousSeq - 1;
						problems.push({
							kind: "seq_gap",
							...where,
							seq: record.seq,
							message: `seq ${record.seq} follows seq ${previousSeq}: ${missing} seq${missing === 1 ? " is" : "s are"} missing`,
						});
					} else {
						problems.push({
							kind: "seq_duplicate",
							...where,
							seq: record.seq,
							message: parents.has(record.seq)
								? `seq ${record.seq} appears again (the later line wins)`
								: `seq ${record.seq} comes after seq ${previousSeq}`,
						});
					}
					previousSeq = Math.max(previousSeq, record.seq);
					const parent = parentSeqOf(record);
					if (parent !== null && !parents.has(parent)) {
						problems.push({
							kind: "dangling_parent",
							...where,
							seq: record.seq,
							message: `seq ${record.seq} names parent ${parent}, which is not an earlier readable record`,
						});
					}
					parents.set(record.seq, parent);
					if (record.recordType === "compaction") {
						compactions.push({ seq: record.seq, firstKeptSeq: record.firstKeptSeq, ...where });
					}
					applyRecord(rebuilt, record);
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
		keepLeaf(rebuilt, stored);
		problems.push(...metadataProblems(stored, rebuilt));
		const ok = problems.every((problem) => problem.kind === "opaque_record");
		return { report: { sessionId: paths.id, ok, problems, records, bytes }, rebuilt };
	} finally {
		if (fd !== undefined) closeSync(fd);
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

/** leafSeq is not in the log: keep it while it still describes the log. */
function keepLeaf(rebuilt: SessionMetadata, stored: MetadataRead): void {
	if (stored.state !== "ok") return;
	const leaf = stored.metadata.leafSeq;
	if (leaf !== undefined && stored.metadata.lastSeq === rebuilt.lastSeq && leaf <= rebuilt.lastSeq) {
		rebuilt.leafSeq = leaf;
	}
}

const COMPARED = [
	"lastSeq",
	"logBytes",
	"messageCount",
	"lastMessageAt",
	"model",
	"name",
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
				message: `metadata.json has ${key} ${have ?? "unset"} but the log says ${want ?? "unset"}; repair rewrites it`,
			});
		}
	}
	return problems;
}

/** JSON with object keys sorted, so two equal values compare equal whatever order their keys were added in. */
function stableJson(value: unknown): string | undefined {
	return JSON.stringify(value, (_key, inner: unknown) =>
		inner && typeof inner === "object" && !Array.isArray(inner)
			? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
			: inner,
	);
}
