import type { StoredRecord } from "@agent/session-format/reading";
import { readLinesForward } from "./line-reader.js";
import { classifyLine, classifyLineLoading } from "./record-reader.js";

/**
 * The record with seq 1 when it is the log's first line (the one that carries the session
 * header), else undefined: the first line is unreadable, or the log is empty. Reads only as far as
 * that line. Problems are not reported here: the callers' own reads report them.
 */
export async function readFirstRecord(
	fd: number,
	end: number,
	maxLineBytes?: number,
): Promise<StoredRecord | undefined> {
	for await (const batch of readLinesForward(fd, { end, chunkBytes: 64 << 10, maxLineBytes })) {
		for (const raw of batch) {
			const outcome = classifyLine(raw) ?? (await classifyLineLoading(raw));
			if (outcome.kind === "blank") continue;
			return outcome.kind === "record" && outcome.record.seq === 1 ? outcome.record : undefined;
		}
	}
	return undefined;
}
