import type { ReadOptions, StoredRecord } from "@agent/session-format/reading";
import { readLinesBackward } from "./backward-reader.js";
import { invalidArgument } from "./errors.js";
import type { LogView } from "./log-view.js";
import { quickSeq } from "./quick-seq.js";
import { readRecordsBackward, readRecordsForward } from "./record-reader.js";

export interface ReadContext {
	where: string;
	forwardChunkBytes: number;
	backwardChunkBytes: number;
	maxLineBytes: number;
}

/** Every record, streamed forwards. */
export function readAll(view: LogView, options: ReadOptions, context: ReadContext): AsyncIterable<StoredRecord> {
	if (view.fd === undefined) return emptyIterable();
	return readRecordsForward(view.fd, {
		...options,
		end: view.state.size,
		chunkBytes: context.forwardChunkBytes,
		maxLineBytes: context.maxLineBytes,
		where: context.where,
	});
}

/** The last n records in log order, read from the end: the cost follows n, not the file. */
export async function tailRecords(
	view: LogView,
	n: number,
	options: ReadOptions,
	context: ReadContext,
): Promise<StoredRecord[]> {
	if (!Number.isInteger(n) || n < 0) throw invalidArgument(`tail needs a whole number of records >= 0, got ${n}`);
	const out: StoredRecord[] = [];
	if (n === 0 || view.fd === undefined) return out;
	const records = readRecordsBackward(view.fd, {
		...options,
		end: view.state.size,
		chunkBytes: context.backwardChunkBytes,
		maxLineBytes: context.maxLineBytes,
		where: context.where,
	});
	for await (const record of records) {
		out.push(record);
		if (out.length >= n) break;
	}
	return out.reverse();
}

/**
 * The records with seq >= fromSeq, in log order. Finds where they start by reading backwards
 * (seqs rise line by line, so the first line below fromSeq marks the spot; only its seq is read,
 * cheaply), then streams forwards from there: the cost follows what is returned.
 */
export async function* readFromSeq(
	view: LogView,
	fromSeq: number,
	options: ReadOptions,
	context: ReadContext,
): AsyncGenerator<StoredRecord> {
	if (!Number.isInteger(fromSeq)) throw invalidArgument(`readFrom needs a whole seq, got ${fromSeq}`);
	if (view.fd === undefined) return;
	const start = fromSeq <= 1 ? 0 : await findStart(view.fd, view.state.size, fromSeq, context);
	const records = readRecordsForward(view.fd, {
		...options,
		start,
		end: view.state.size,
		chunkBytes: context.forwardChunkBytes,
		maxLineBytes: context.maxLineBytes,
		where: context.where,
	});
	for await (const record of records) if (record.seq >= fromSeq) yield record;
}

async function findStart(fd: number, end: number, fromSeq: number, context: ReadContext): Promise<number> {
	const read = { end, chunkBytes: context.backwardChunkBytes, maxLineBytes: context.maxLineBytes };
	for await (const batch of readLinesBackward(fd, read)) {
		for (const raw of batch) {
			if (!raw.terminated || raw.oversized) continue;
			const seq = quickSeq(raw.text);
			if (seq !== undefined && seq < fromSeq) return raw.byteOffset + raw.byteLength + 1;
		}
	}
	return 0;
}

async function* emptyIterable(): AsyncGenerator<StoredRecord> {}
