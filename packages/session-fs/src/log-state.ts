import { fstatSync, readSync } from "node:fs";
import type { SessionMetadata } from "@agent/session-format/reading";
import { applyRecord, cloneMetadata, MetadataRebuild } from "@agent/session-format/store-kit";
import { readLinesBackward } from "./backward-reader.js";
import { readLinesForward } from "./line-reader.js";
import { type MetadataRead, readMetadataFile } from "./metadata-file.js";

import type { SessionPaths } from "./paths.js";
import { quickSeq } from "./quick-seq.js";
import { classifyLine, classifyLineLoading } from "./record-reader.js";

/** The log as it is now, and metadata that is true of it. */
export interface LogState {
	/** Metadata derived up to `completeBytes` (logBytes === completeBytes). */
	metadata: SessionMetadata;
	/** The file's size when it was looked at. */
	size: number;
	/** Where the last whole line ends; less than size when the log ends with a torn tail. */
	completeBytes: number;
	/** True when the last line is a whole record but its LF is missing (the writer adds it). */
	unterminated: boolean;
	/** What metadata.json held. */
	stored: MetadataRead;
	/** How the metadata was brought up to date: it was fresh, the missing tail was replayed, or the whole log. */
	refresh: "fresh" | "catch-up" | "rebuild";
}

/**
 * Looks at the log's size and metadata.json and returns metadata that is true of the log,
 * doing the least work: metadata.json records the log's byte length, so a fresh cache is known
 * in O(1); a cache that lags (a crash between an append and its metadata write, or a lease
 * holder's coalesced writes) is caught up by replaying only the bytes after its logBytes; only a
 * damaged, missing or inconsistent cache costs a full replay. `checkLastSeq` also reads the last
 * line to confirm the cache's lastSeq (writers do, before assigning seqs).
 */
export async function loadLogState(
	fd: number,
	paths: SessionPaths,
	options: { chunkBytes?: number; maxLineBytes?: number; checkLastSeq?: boolean } = {},
): Promise<LogState> {
	const size = fstatSync(fd).size;
	const stored = await readMetadataFile(paths.metadata, paths.id);
	const cached = stored.state === "ok" ? stored.metadata : undefined;
	if (cached && cached.logBytes <= size && endsAtLineBoundary(fd, cached.logBytes)) {
		if (cached.logBytes === size) {
			const lastSeq = options.checkLastSeq ? await peekLastSeq(fd, size, options.maxLineBytes) : undefined;
			if (lastSeq === undefined || lastSeq === cached.lastSeq) {
				return {
					metadata: cloneMetadata(cached),
					size,
					completeBytes: size,
					unterminated: false,
					stored,
					refresh: "fresh",
				};
			}
		} else {
			const metadata = cloneMetadata(cached);
			const replayed = await replay(fd, metadata, cached.logBytes, size, options);
			metadata.logBytes = replayed.completeBytes;
			return { metadata, size, ...replayed, stored, refresh: "catch-up" };
		}
	}
	const rebuild = new MetadataRebuild(paths.id, cached);
	const replayed = await replay(fd, rebuild, 0, size, options);
	const metadata = rebuild.finish(replayed.completeBytes);
	return {
		metadata,
		size,
		completeBytes: replayed.completeBytes,
		unterminated: replayed.unterminated,
		stored,
		refresh: "rebuild",
	};
}

/** Replays the whole lines in [start, end) into `metadata` (a last line without LF counts when it is a record). */
async function replay(
	fd: number,
	into: SessionMetadata | MetadataRebuild,
	start: number,
	end: number,
	read: { chunkBytes?: number; maxLineBytes?: number },
): Promise<{ completeBytes: number; applied: number; unterminated: boolean }> {
	let completeBytes = start;
	let applied = 0;
	let unterminated = false;
	for await (const batch of readLinesForward(fd, {
		start,
		end,
		chunkBytes: read.chunkBytes,
		maxLineBytes: read.maxLineBytes,
	})) {
		for (const raw of batch) {
			const outcome = classifyLine(raw) ?? (await classifyLineLoading(raw));
			if (!raw.terminated) {
				if (outcome.kind !== "record") continue;
				unterminated = true;
			}
			completeBytes = raw.byteOffset + raw.byteLength + (raw.terminated ? 1 : 0);
			if (outcome.kind === "record") {
				if (into instanceof MetadataRebuild) into.apply(outcome.record);
				else applyRecord(into, outcome.record);
				applied++;
			}
		}
	}
	return { completeBytes, applied, unterminated };
}

/** True when `offset` is 0 or the byte before it is an LF: a place where a line starts. */
export function endsAtLineBoundary(fd: number, offset: number): boolean {
	if (offset === 0) return true;
	const byte = Buffer.alloc(1);
	return readSync(fd, byte, 0, 1, offset - 1) === 1 && byte[0] === 10;
}

/** The seq of the last complete line, when it parses; undefined otherwise. */
async function peekLastSeq(fd: number, end: number, maxLineBytes: number | undefined): Promise<number | undefined> {
	for await (const batch of readLinesBackward(fd, { end, chunkBytes: 64 << 10, maxLineBytes })) {
		for (const raw of batch) {
			// A line too long to decode says nothing here; the cache is trusted as it is.
			if (raw.oversized) return undefined;
			if (raw.text.trim().length === 0) continue;
			return quickSeq(raw.text);
		}
	}
	return undefined;
}
