import { closeSync, fsyncSync, readSync, rmSync } from "node:fs";
import {
	type ForkOptions,
	loadSchemaChecks,
	type SessionMetadata,
	type StoredRecord,
	serializeRecord,
} from "@agent/session-format/reading";
import {
	applyRecord,
	forkedRecord,
	forkMetadata,
	sessionHeaderOf,
	withSessionHeader,
} from "@agent/session-format/store-kit";
import { invalidArgument } from "./errors.js";
import type { RawLine } from "./line-reader.js";
import type { LogView } from "./log-view.js";
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
}

const WRITE_BATCH_BYTES = 1 << 20;

/**
 * A new session holding the path to atSeq, renumbered 1..n and made linear: parentSeq dropped,
 * compaction.firstKeptSeq and branch_summary.fromSeq remapped. A compaction keeps the same run of
 * records it kept before (its firstKeptSeq becomes the new seq of the first of them, or its own
 * when it kept none); a branch summary whose fromSeq is off the path points at itself. Labels of
 * records on the path follow them (labels are side records, never on a path); other side records
 * (names, leaf moves, archive changes, uptime, turns) stay with the source. The first record
 * carries the new session's header: its name, model, system prompt, working directory and where
 * it was forked from. Two passes keep memory to a few numbers per record, so any size forks: the
 * path's positions, read backwards; then its lines, one at a time.
 */
export async function forkSession(
	source: LogView,
	options: ForkOptions,
	store: ResolvedOptions,
	where: string,
): Promise<SessionMetadata> {
	await loadSchemaChecks();
	const sourceMeta = source.state.metadata;
	const atSeq = options.atSeq ?? sourceMeta.leafSeq ?? sourceMeta.lastSeq;
	if (!Number.isInteger(atSeq) || atSeq < 0 || atSeq > sourceMeta.lastSeq) {
		throw invalidArgument(
			`cannot fork session ${sourceMeta.id} at seq ${atSeq}: it holds seqs 1..${sourceMeta.lastSeq}`,
		);
	}
	const fd = source.fd;
	/** The latest label record of each target, met first when reading backwards. */
	const labels = new Map<number, PathEntry & { label: string }>();
	const walked =
		fd === undefined || atSeq === 0
			? { items: [] as PathEntry[], start: undefined }
			: await walkPathBackward(
					fd,
					{
						leafSeq: atSeq,
						stopAtCompaction: false,
						leafFallsBack: options.atSeq === undefined,
						end: source.state.size,
						chunkBytes: store.backwardChunkBytes,
						maxLineBytes: store.maxLineBytes,
						where,
						onRecord: (record, raw) => {
							if (record.recordType !== "label" || labels.has(record.targetSeq)) return;
							labels.set(record.targetSeq, { ...entryOf(record, raw), label: record.label ?? "" });
						},
					},
					entryOf,
				);
	if (options.atSeq !== undefined && atSeq > 0 && walked.start === undefined) {
		throw invalidArgument(`cannot fork session ${sourceMeta.id} at seq ${atSeq}: no readable record has that seq`);
	}
	const path = walked.items;
	const newSeq = new Map(path.map((entry, index) => [entry.seq, index + 1]));
	const keptSeqs = path.map((entry) => entry.seq);
	const labelled = [...labels.entries()]
		.filter(([target, entry]) => newSeq.has(target) && entry.label.length > 0)
		.map(([, entry]) => entry)
		.sort((a, b) => a.seq - b.seq);

	const metadata = forkMetadata(sourceMeta, options, path[path.length - 1]?.seq ?? 0, store.now());
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
			const add = (record: StoredRecord) => {
				applyRecord(metadata, record);
				const line = `${serializeRecord(record)}\n`;
				pending.push(line);
				pendingBytes += line.length;
				if (pendingBytes >= WRITE_BATCH_BYTES) flush();
			};
			const header = sessionHeaderOf(metadata);
			for (const entry of path) {
				const record = forkedRecord(readRecordAt(fd as number, entry), newSeq, keptSeqs);
				add(record.seq === 1 ? withSessionHeader(record, header) : record);
			}
			let seq = path.length;
			for (const entry of labelled) {
				const label = readRecordAt(fd as number, entry);
				if (label.recordType !== "label") continue;
				const { parentSeq: _dropped, ...rest } = label;
				add({ ...rest, seq: ++seq, targetSeq: newSeq.get(label.targetSeq) as number });
			}
			if (pending.length > 0) flush();
			if (store.durability === "fsync") fsyncSync(out);
			metadata.logBytes = written;
		} finally {
			closeSync(out);
		}
		writeMetadataFile(paths, metadata, store.durability === "fsync");
		syncNewDirectory(paths, store.home, store.durability);
		return metadata;
	} catch (error) {
		rmSync(paths.dir, { recursive: true, force: true });
		throw error;
	}
}

function entryOf(record: StoredRecord, raw: RawLine): PathEntry {
	return { seq: record.seq, byteOffset: raw.byteOffset, byteLength: raw.byteLength };
}

function readRecordAt(fd: number, entry: PathEntry): StoredRecord {
	const bytes = Buffer.allocUnsafe(entry.byteLength);
	readSync(fd, bytes, 0, entry.byteLength, entry.byteOffset);
	const raw: RawLine = { ...entry, text: bytes.toString("utf8"), line: 0, terminated: true };
	// forkSession loaded the record schemas: every line is decided here.
	const outcome = classifyLine(raw);
	if (outcome?.kind !== "record") throw new Error(`seq ${entry.seq} changed while it was forked`);
	return outcome.record;
}
