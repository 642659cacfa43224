import { closeSync, fsyncSync, readSync, rmSync } from "node:fs";
import { type ForkOptions, type SessionMetadata, type StoredRecord, serializeRecord } from "@agent/session-format";
import { invalidArgument } from "./errors.js";
import type { RawLine } from "./line-reader.js";
import type { LogView } from "./log-view.js";
import { applyRecord, newMetadata } from "./metadata-derive.js";
import { writeMetadataFile } from "./metadata-file.js";
import type { ResolvedOptions } from "./options.js";
import { walkPathBackward } from "./path-walk.js";
import { classifyLine } from "./record-reader.js";
import { createLog, makeSessionDir, syncNewDirectory } from "./session-files.js";
import { appendAll } from "./write-bytes.js";

interface PathEntry {
	seq: number;
	byteOffset: number;
	byteLength: number;
	/** For a label: the seq it labels (a label of a record off the path is not carried over). */
	targetSeq?: number;
}

const WRITE_BATCH_BYTES = 1 << 20;

/**
 * A new session holding the path to atSeq, renumbered 1..n and made linear: parentSeq dropped,
 * compaction.firstKeptSeq, label.targetSeq and branch_summary.fromSeq remapped. A compaction
 * keeps the same run of records it kept before (its firstKeptSeq becomes the new seq of the first
 * of them, or its own when it kept none); a branch summary whose fromSeq is off the path points
 * at itself; a label of a record off the path is dropped. Two passes keep memory to
 * a few numbers per record, so any size forks: the path's positions, read backwards; then its
 * lines, one at a time.
 */
export async function forkSession(
	source: LogView,
	options: ForkOptions,
	store: ResolvedOptions,
	where: string,
): Promise<SessionMetadata> {
	const sourceMeta = source.state.metadata;
	const atSeq = options.atSeq ?? sourceMeta.leafSeq ?? sourceMeta.lastSeq;
	if (!Number.isInteger(atSeq) || atSeq < 0 || atSeq > sourceMeta.lastSeq) {
		throw invalidArgument(
			`cannot fork session ${sourceMeta.id} at seq ${atSeq}: it holds seqs 1..${sourceMeta.lastSeq}`,
		);
	}
	const fd = source.fd;
	const path =
		fd === undefined || atSeq === 0
			? []
			: await walkPathBackward(
					fd,
					{
						leafSeq: atSeq,
						stopAtCompaction: false,
						end: source.state.size,
						chunkBytes: store.backwardChunkBytes,
						where,
					},
					(record, raw): PathEntry => ({
						seq: record.seq,
						byteOffset: raw.byteOffset,
						byteLength: raw.byteLength,
						...(record.recordType === "label" ? { targetSeq: record.targetSeq } : {}),
					}),
				);
	if (atSeq > 0 && path[path.length - 1]?.seq !== atSeq) {
		throw invalidArgument(`cannot fork session ${sourceMeta.id} at seq ${atSeq}: no readable record has that seq`);
	}
	const onPath = new Set(path.map((entry) => entry.seq));
	const kept = path.filter((entry) => entry.targetSeq === undefined || onPath.has(entry.targetSeq));
	const newSeq = new Map(kept.map((entry, index) => [entry.seq, index + 1]));

	const now = store.now();
	const metadata = newMetadata(
		"",
		{ model: sourceMeta.model, systemPromptOverride: sourceMeta.systemPromptOverride },
		now,
	);
	const paths = makeSessionDir(store.home);
	metadata.id = paths.id;
	try {
		const out = createLog(paths);
		try {
			let pending: string[] = [];
			let pendingBytes = 0;
			let written = 0;
			const flush = () => {
				const bytes = Buffer.from(pending.join(""));
				appendAll(out, bytes, written, `the fork of session ${sourceMeta.id}`);
				written += bytes.length;
				pending = [];
				pendingBytes = 0;
			};
			let named = false;
			const add = (record: StoredRecord) => {
				applyRecord(metadata, record);
				if (record.recordType === "session_info") named = true;
				const line = `${serializeRecord(record)}\n`;
				pending.push(line);
				pendingBytes += line.length;
				if (pendingBytes >= WRITE_BATCH_BYTES) flush();
			};
			const keptSeqs = kept.map((entry) => entry.seq);
			for (const entry of kept) add(remap(readRecordAt(fd as number, entry), newSeq, keptSeqs));
			// A name given here must outlive a rebuild, which takes the name from the log's latest session_info.
			if (named && options.name) {
				add({
					recordType: "session_info",
					schemaVersion: 1,
					seq: kept.length + 1,
					timestamp: now.toISOString(),
					name: options.name,
				});
			}
			if (pending.length > 0) flush();
			if (store.durability === "fsync") fsyncSync(out);
			metadata.logBytes = written;
		} finally {
			closeSync(out);
		}
		if (options.name !== undefined && options.name.length > 0) metadata.name = options.name;
		metadata.forkedFrom = { sessionId: sourceMeta.id, seq: atSeq };
		writeMetadataFile(paths.metadata, metadata, store.durability === "fsync");
		syncNewDirectory(paths, store.home, store.durability);
		return metadata;
	} catch (error) {
		rmSync(paths.dir, { recursive: true, force: true });
		throw error;
	}
}

function readRecordAt(fd: number, entry: PathEntry): StoredRecord {
	const bytes = Buffer.allocUnsafe(entry.byteLength);
	readSync(fd, bytes, 0, entry.byteLength, entry.byteOffset);
	const raw: RawLine = { ...entry, text: bytes.toString("utf8"), line: 0, terminated: true };
	const outcome = classifyLine(raw);
	if (outcome.kind !== "record") throw new Error(`seq ${entry.seq} changed while it was forked`);
	return outcome.record;
}

function remap(record: StoredRecord, newSeq: ReadonlyMap<number, number>, keptSeqs: readonly number[]): StoredRecord {
	const seq = newSeq.get(record.seq) as number;
	if (record.recordType === "opaque") {
		const { parentSeq: _dropped, ...original } = record.original;
		return { ...record, seq, parentSeq: undefined, original };
	}
	const copy = { ...record, seq };
	delete copy.parentSeq;
	if (copy.recordType === "compaction") {
		// The context keeps the records before the compaction with seq >= firstKeptSeq: the same run here.
		const first = keptSeqs[firstAtLeast(keptSeqs, copy.firstKeptSeq)];
		copy.firstKeptSeq = first === undefined ? seq : Math.min(newSeq.get(first) as number, seq);
	} else if (copy.recordType === "branch_summary") copy.fromSeq = newSeq.get(copy.fromSeq) ?? seq;
	else if (copy.recordType === "label") copy.targetSeq = newSeq.get(copy.targetSeq) ?? seq;
	return copy;
}

/** The index of the first value >= target in an ascending array (its length when none). */
function firstAtLeast(sorted: readonly number[], target: number): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const mid = (low + high) >> 1;
		if ((sorted[mid] as number) < target) low = mid + 1;
		else high = mid;
	}
	return low;
}
