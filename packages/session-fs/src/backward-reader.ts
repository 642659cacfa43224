import { fstatSync, readSync } from "node:fs";
import { DEFAULT_MAX_LINE_BYTES, type RawLine, yieldToEventLoop } from "./line-reader.js";

export interface BackwardReadOptions {
	/** Byte offset to stop at (exclusive); default the file's size when reading starts. */
	end?: number;
	/** Byte offset not to read before; must be the start of a line (0, or just after an LF). Default 0. */
	start?: number;
	/** Bytes per read; default 256 KiB. */
	chunkBytes?: number;
	/** Longer lines are reported as oversized instead of decoded; default 256 MiB. */
	maxLineBytes?: number;
}

export const DEFAULT_BACKWARD_CHUNK = 256 << 10;
const BYTES_BETWEEN_YIELDS = 4 << 20;

/**
 * Streams the lines of an open file from the end towards the start, in batches (one per chunk
 * read), each batch last line first. Line numbers are 0 (unknown: nothing before was counted);
 * byte offsets are exact. The cost follows how far the caller reads, not the file's size: stop
 * iterating and nothing more is read. Synchronous reads, for the reason given in line-reader.ts.
 */
export async function* readLinesBackward(fd: number, options: BackwardReadOptions = {}): AsyncGenerator<RawLine[]> {
	const start = options.start ?? 0;
	const end = options.end ?? fstatSync(fd).size;
	if (end <= start) return;
	const chunkBytes = Math.max(1, options.chunkBytes ?? DEFAULT_BACKWARD_CHUNK);
	const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
	const buffer = Buffer.allocUnsafe(Math.min(chunkBytes, end - start));

	const last = Buffer.alloc(1);
	readSync(fd, last, 0, 1, end - 1);
	// The line being assembled ends (exclusive, before its LF) at lineEnd.
	let lineEnd = last[0] === 10 ? end - 1 : end;
	let lineTerminated = last[0] === 10;
	// Pieces of the line being assembled, rightmost first.
	let pieces: Buffer[] = [];
	let pieceBytes = 0;
	let position = lineEnd;
	let sinceYield = 0;

	const finishLine = (lineStart: number, firstPiece: Buffer): RawLine => {
		const byteLength = lineEnd - lineStart;
		const line: RawLine = { text: "", line: 0, byteOffset: lineStart, byteLength, terminated: lineTerminated };
		if (byteLength > maxLineBytes) line.oversized = true;
		else if (pieceBytes === 0) line.text = firstPiece.toString("utf8");
		else line.text = Buffer.concat([firstPiece, ...pieces.reverse()]).toString("utf8");
		pieces = [];
		pieceBytes = 0;
		return line;
	};

	while (position > start) {
		const readStart = Math.max(start, position - buffer.length);
		const length = position - readStart;
		const bytesRead = readSync(fd, buffer, 0, length, readStart);
		if (bytesRead < length) throw new Error(`the file shrank while it was read backwards (at byte ${readStart})`);
		const chunk = buffer.subarray(0, length);
		const batch: RawLine[] = [];
		let right = length; // exclusive end, within chunk, of the part not yet consumed
		while (right > 0) {
			const lf = chunk.lastIndexOf(10, right - 1);
			if (lf === -1) {
				pieceBytes += right;
				if (pieceBytes <= maxLineBytes) pieces.push(Buffer.from(chunk.subarray(0, right)));
				else pieces = [];
				break;
			}
			batch.push(finishLine(readStart + lf + 1, chunk.subarray(lf + 1, right)));
			lineEnd = readStart + lf;
			lineTerminated = true;
			right = lf;
		}
		position = readStart;
		if (batch.length > 0) yield batch;
		sinceYield += length;
		if (sinceYield >= BYTES_BETWEEN_YIELDS) {
			sinceYield = 0;
			await yieldToEventLoop();
		}
	}
	// What is left reaches back to `start`: the first line of the range.
	if (lineEnd > start || lineTerminated) {
		const first = pieces.pop() ?? Buffer.alloc(0);
		pieceBytes -= first.length;
		yield [finishLine(start, first)];
	}
}
