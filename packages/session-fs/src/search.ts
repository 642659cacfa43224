import { closeSync, fstatSync, readSync } from "node:fs";
import type { SearchHit, SearchOptions, SessionMetadata } from "@agent/session-format/reading";
import { type TextMatcher, textMatcher } from "@agent/session-format/store-kit";
import { aborted, errnoCode } from "./errors.js";
import { type RawLine, readLinesForward } from "./line-reader.js";
import type { SessionPaths } from "./paths.js";
import { classifyLine, classifyLineLoading } from "./record-reader.js";
import { openOwnFile, READ_FLAGS } from "./safe-files.js";

export const DEFAULT_SEARCH_LIMIT = 100;

export interface SearchSources {
	/** The sessions to search, newest activity first (what list gives). */
	sessions: readonly SessionMetadata[];
	paths(id: string): SessionPaths;
	maxLineBytes: number;
	chunkBytes: number;
}

/**
 * Searches the logs of `sources.sessions` in order. Each log is read forwards in chunks (any
 * size); a line is parsed only when its JSON holds the query (TextMatcher.rawPattern, else rawWord),
 * so a search costs about one pass over the bytes. Damaged lines are skipped: search reports
 * what it can read, verify reports the rest.
 */
export async function searchLogs(query: string, options: SearchOptions, sources: SearchSources): Promise<SearchHit[]> {
	const matcher = textMatcher(query);
	const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
	const rawWord =
		matcher.rawPattern ?? (matcher.rawWord.length > 0 ? new RegExp(escapeRegExp(matcher.rawWord), "i") : undefined);
	const hits: SearchHit[] = [];
	const whole = new WholeLogs();
	for (const session of sources.sessions) {
		if (hits.length >= limit) break;
		if (options.signal?.aborted) throw aborted("search");
		await searchLog(sources, session, matcher, rawWord, whole, hits, limit);
	}
	return hits;
}

async function searchLog(
	sources: SearchSources,
	session: SessionMetadata,
	matcher: TextMatcher,
	rawWord: RegExp | undefined,
	whole: WholeLogs,
	hits: SearchHit[],
	limit: number,
): Promise<void> {
	let fd: number;
	try {
		fd = openOwnFile(sources.paths(session.id).log, READ_FLAGS);
	} catch (error) {
		if (errnoCode(error) === "ENOENT") return; // deleted since the listing, or no record yet
		throw error;
	}
	try {
		const size = fstatSync(fd).size;
		// A query in printable ASCII (it has a raw pattern) is looked for in the bytes of a whole log.
		if (matcher.rawPattern !== undefined && size <= WHOLE_LOG_BYTES) {
			await searchBytes(whole.read(fd, size), session, matcher, whole.pattern(matcher.rawPattern), hits, limit);
			return;
		}
		for await (const batch of readLinesForward(fd, {
			chunkBytes: sources.chunkBytes,
			maxLineBytes: sources.maxLineBytes,
		})) {
			for (const line of batch) {
				if (line.oversized || (rawWord !== undefined && !rawWord.test(line.text))) continue;
				const outcome = classifyLine(line) ?? (await classifyLineLoading(line));
				if (outcome.kind !== "record") continue;
				if (!add(hits, limit, matcher.match(session.id, outcome.record, session.name))) return;
			}
		}
	} finally {
		closeSync(fd);
	}
}

/** Logs up to this size are read in one piece and searched as one string (most sessions). */
const WHOLE_LOG_BYTES = 8 << 20;

/**
 * What one search reads whole logs with: one buffer, grown as needed and reused from log to log
 * (nothing keeps a log's bytes: lines are decoded into strings of their own), and the raw pattern
 * made global for scanning.
 */
class WholeLogs {
	private buffer = Buffer.allocUnsafe(0);
	private global: RegExp | undefined;

	read(fd: number, size: number): Buffer {
		if (this.buffer.length < size) this.buffer = Buffer.allocUnsafe(Math.max(size, this.buffer.length * 2));
		let filled = 0;
		while (filled < size) {
			const read = readSync(fd, this.buffer, filled, size - filled, filled);
			if (read === 0) break; // the file shrank: what was read is all there is
			filled += read;
		}
		return this.buffer.subarray(0, filled);
	}

	pattern(raw: RegExp): RegExp {
		this.global ??= new RegExp(raw.source, "gi");
		return this.global;
	}
}

/**
 * Searches a whole log held in memory. Its bytes are scanned as Latin-1 (one character per byte,
 * so positions stay byte offsets) with the case-insensitive raw pattern, which only matches
 * ASCII letters with ASCII letters (faster than lowering the text first, which costs a pass of
 * its own); only the lines it lands in are decoded (UTF-8), parsed and matched, in log order.
 */
async function searchBytes(
	bytes: Buffer,
	session: SessionMetadata,
	matcher: TextMatcher,
	pattern: RegExp,
	hits: SearchHit[],
	limit: number,
): Promise<void> {
	const text = bytes.toString("latin1");
	pattern.lastIndex = 0;
	let found = pattern.exec(text);
	while (found !== null) {
		const start = text.lastIndexOf("\n", found.index) + 1;
		const newline = text.indexOf("\n", found.index);
		const end = newline < 0 ? text.length : newline;
		const raw: RawLine = {
			text: bytes.toString("utf8", start, end),
			line: 0,
			byteOffset: start,
			byteLength: end - start,
			terminated: newline >= 0,
			oversized: false,
		};
		const outcome = classifyLine(raw) ?? (await classifyLineLoading(raw));
		if (outcome.kind === "record" && !add(hits, limit, matcher.match(session.id, outcome.record, session.name))) {
			return;
		}
		if (newline < 0) return;
		pattern.lastIndex = end + 1;
		found = pattern.exec(text);
	}
}

/** Adds a hit; false once the limit is reached. */
function add(hits: SearchHit[], limit: number, hit: SearchHit | undefined): boolean {
	if (hit !== undefined) hits.push(hit);
	return hits.length < limit;
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
