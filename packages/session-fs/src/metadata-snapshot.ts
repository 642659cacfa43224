import * as zlib from "node:zlib";
import { isSessionId, type SessionStats } from "@agent/session-format/reading";
import { METADATA_KEYS } from "@agent/session-format/store-kit";
import { readCacheFile, replaceCacheFile } from "./cache-files.js";
import { type CachedMetadata, type DirectoryIdentity, type FileIdentity, ListedSession } from "./listed-session.js";
import { MAX_SNAPSHOT_BYTES } from "./safe-files.js";

/**
 * A snapshot as loaded: its entries, the change token they were all checked under (if any), and
 * summarizeSessions of exactly those entries in listing order (if it was known when written).
 */
export interface Snapshot {
	entries: Map<string, CachedMetadata>;
	checkedUnder?: string;
	/** The sessions directory's identity when the listing that checked the entries read it. */
	checkedDirectory?: DirectoryIdentity;
	summary?: SessionStats;
}

/** What saveSnapshot writes: the entries (in listing order) and what they were checked under. */
export interface SnapshotContent {
	entries: Iterable<CachedMetadata>;
	checkedUnder?: string | undefined;
	checkedDirectory?: DirectoryIdentity | undefined;
	summary?: SessionStats | undefined;
}

const FORMAT = 8;
const COMMA = 0x2c;
/** The metadata fields this code knows: a snapshot written by code that knew others is not used. */
const FIELDS = METADATA_KEYS.join(",");

/**
 * One entry of the index: [id, ino, mtimeMs, ctimeMs, size, listing time, archived (1) or not
 * (0), the byte length of the session's metadata].
 */
type IndexEntry = [string, number, number, number, number, number, number, number];

/** The second line: the index, and what the entries were checked under (all under the checksum). */
interface IndexLine {
	index: IndexEntry[];
	checkedUnder?: string;
	checkedDirectory?: DirectoryIdentity;
	stats?: SessionStats;
}

/**
 * The metadata cache of a listing, kept on disk ($AGENT_HOME/cache/metadata-snapshot.json) so
 * that the first listing of a new process (a CLI call, a server start) reads one file instead of
 * an open, a read, a close, a JSON parse and a check of every metadata.json: on the machines
 * measured, those syscalls were most of a listing.
 *
 * Three lines: a header (format, the metadata fields known to the writer, and the CRC-32 of
 * everything after it); the index (a JSON object: per session its id, its file's identity, its
 * listing time, whether it is archived and the byte length of its metadata; the store's change
 * token the entries were all checked under with the sessions directory's identity then; and the
 * entries' `stats` summary when the writer knew it); then the sessions' metadata as
 * JSON.stringify wrote it (UTF-8), in the index's order (listing order), separated by commas: the
 * text of a JSON array's elements, which `list --json` writes as it lies. A listing parses the
 * index; a session's metadata is parsed only when something asks for it (ListedSession).
 * Entries are written only from metadata this code checked, so a snapshot whose header and
 * checksum match is used as it is (checking 2,000 entries field by field again cost as much as
 * the stats); one that is missing, damaged, or of
 * another format or field set is ignored. An entry is used only while the metadata.json it came
 * from still has the same inode, times and size (metadata.json is only ever replaced by a rename,
 * which changes all of them), or without looking while the store's change mark still holds the
 * token (metadata-changes.ts). It is replaced as every cache file is (cache-files.ts).
 */
export function loadSnapshot(path: string): Snapshot {
	const entries = new Map<string, CachedMetadata>();
	let checkedUnder: string | undefined;
	let checkedDirectory: DirectoryIdentity | undefined;
	let summary: SessionStats | undefined;
	try {
		const bytes = readCacheFile(path, MAX_SNAPSHOT_BYTES);
		if (bytes === undefined) return { entries };
		const newline = bytes.indexOf(10);
		if (newline < 0) return { entries };
		const header = JSON.parse(bytes.toString("utf8", 0, newline)) as Record<string, unknown>;
		const body = bytes.subarray(newline + 1);
		const check = checksum(body);
		if (header.format !== FORMAT || header.fields !== FIELDS || check === undefined || header.crc32 !== check) {
			return { entries };
		}
		const indexEnd = body.indexOf(10);
		const line = JSON.parse(body.toString("utf8", 0, indexEnd < 0 ? body.length : indexEnd)) as IndexLine;
		const index = line.index;
		if (!Array.isArray(index)) return { entries };
		// The sessions follow the index in its order, each as long as its entry says: no search for
		// separators (2,000 Buffer.indexOf calls were a third of loading the snapshot). The checksum
		// and the format vouch for the rest of the line; an entry's id (a path component) and its
		// bounds are checked all the same.
		let start = indexEnd + 1;
		for (let i = 0; i < index.length; i++) {
			const row = index[i] as IndexEntry;
			const id = row[0];
			const end = start + row[7];
			if (!isSessionId(id) || !(end <= body.length) || (end < body.length && body[end] !== COMMA)) {
				return { entries: new Map() };
			}
			entries.set(id, new SnapshotEntry(ListedSession.fromText(id, row[5], row[6] === 1, body, start, end), row));
			start = end + 1;
		}
		checkedUnder = line.checkedUnder;
		checkedDirectory = line.checkedDirectory;
		summary = line.stats;
	} catch {
		return { entries: new Map() };
	}
	return {
		entries,
		...(checkedUnder === undefined ? {} : { checkedUnder }),
		...(checkedDirectory === undefined ? {} : { checkedDirectory }),
		...(summary === undefined ? {} : { summary }),
	};
}

/** An entry of the snapshot: its file's identity is made from the index row only when asked (a listing that trusts the mark never asks). */
class SnapshotEntry implements CachedMetadata {
	constructor(
		readonly session: ListedSession,
		private readonly row: IndexEntry,
	) {}

	get identity(): FileIdentity {
		const row = this.row;
		return { ino: row[1], mtimeMs: row[2], ctimeMs: row[3], size: row[4] };
	}
}

/** The snapshot file's bytes for these entries (made from their JSON's bytes: no text per session). */
export function snapshotBytes(snapshot: SnapshotContent): Buffer {
	const index: IndexEntry[] = [];
	const parts: Uint8Array[] = [];
	const comma = Buffer.from(",");
	for (const { identity, session } of snapshot.entries) {
		const { ino, mtimeMs, ctimeMs, size } = identity;
		const json = session.jsonBytes();
		index.push([session.id, ino, mtimeMs, ctimeMs, size, session.time, session.archived ? 1 : 0, json.length]);
		if (parts.length > 0) parts.push(comma);
		parts.push(json);
	}
	const { checkedUnder, checkedDirectory, summary } = snapshot;
	const line: IndexLine = { index, checkedUnder, checkedDirectory, stats: summary };
	const body = Buffer.concat([Buffer.from(`${JSON.stringify(line)}\n`), ...parts]);
	const header = JSON.stringify({ format: FORMAT, fields: FIELDS, crc32: checksum(body) });
	return Buffer.concat([Buffer.from(`${header}\n`), body]);
}

/** Replaces the snapshot; a failure (read-only home, full disk) only costs the next process a slower listing. */
export function saveSnapshot(path: string, snapshot: SnapshotContent): void {
	replaceCacheFile(path, snapshotBytes(snapshot));
}

/**
 * The snapshot's checksum: a CRC-32 (zlib's, Node >= 20.15), which finds a damaged file as well as
 * a cryptographic hash would for a cache nobody forges, without loading node:crypto (milliseconds
 * of every listing's start). Without zlib.crc32 there is none, and the snapshot is not used.
 */
function checksum(bytes: Buffer): number | undefined {
	return typeof zlib.crc32 === "function" ? zlib.crc32(bytes) : undefined;
}
