import { closeSync, existsSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import * as zlib from "node:zlib";
import { emptyTokenTotals, isSessionId, type SessionStats } from "@agent/session-format/reading";
import { type CachedMetadata, type DirectoryIdentity, type FileIdentity, ListedSession } from "./listed-session.js";
import { METADATA_KEYS } from "./metadata-fast.js";
import { CREATE_FLAGS, MAX_SNAPSHOT_BYTES, makePrivateDir, openOwnFile, readOwnFileCapped } from "./safe-files.js";

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

const FORMAT = 7;
const COMMA = 0x2c;
/** The metadata fields this code knows: a snapshot written by code that knew others is not used. */
const FIELDS = METADATA_KEYS.join(",");

/**
 * One entry of the index line: [id, ino, mtimeMs, ctimeMs, size, listing time, archived (1) or
 * not (0), the byte length of the session's metadata line].
 */
type IndexEntry = [string, number, number, number, number, number, number, number];

/**
 * The metadata cache of a listing, kept on disk ($AGENT_HOME/cache/metadata-snapshot.json) so
 * that the first listing of a new process (a CLI call, a server start) reads one file instead of
 * an open, a read, a close, a JSON parse and a check of every metadata.json: on the machines
 * measured, those syscalls were most of a listing.
 *
 * Three lines: a header (format, the metadata fields known to the writer, the CRC-32 of
 * everything after it, the store's change token the entries were all checked under with the
 * sessions directory's identity then, and the entries' `stats` summary when the writer knew it),
 * an index (one JSON array: per session its id, its file's identity, its listing time, whether it
 * is archived and the byte length of its metadata), then the sessions' metadata as
 * JSON.stringify wrote it (UTF-8), in the index's order (listing order), separated by commas: the
 * text of a JSON array's elements, which `list --json` writes as it lies (the index is ASCII and
 * read as Latin-1). A listing parses the index; a session's metadata is parsed only when
 * something asks for it (ListedSession). Entries are written only from metadata this code
 * checked, so a snapshot whose header and checksum match is used as it is (checking 2,000
 * entries field by field again cost as much as the stats); one that is missing, damaged, or of
 * another format or field set is ignored. An entry is used only while the metadata.json it came
 * from still has the same inode, times and size (metadata.json is only ever replaced by a rename,
 * which changes all of them), or without looking while the store's change mark still holds the
 * token (metadata-changes.ts). It is written to a temporary file and renamed (no fsync: losing it
 * costs one slower listing), so concurrent writers leave one whole snapshot or the other.
 */
export function loadSnapshot(path: string): Snapshot {
	const entries = new Map<string, CachedMetadata>();
	let checkedUnder: string | undefined;
	let checkedDirectory: DirectoryIdentity | undefined;
	let summary: SessionStats | undefined;
	try {
		const read = readOwnFileCapped(path, MAX_SNAPSHOT_BYTES);
		if (read.state !== "ok") return { entries };
		const bytes = read.bytes;
		const newline = bytes.indexOf(10);
		if (newline < 0) return { entries };
		const header = JSON.parse(bytes.toString("utf8", 0, newline)) as Record<string, unknown>;
		const body = bytes.subarray(newline + 1);
		const check = checksum(body);
		if (header.format !== FORMAT || header.fields !== FIELDS || check === undefined || header.crc32 !== check) {
			return { entries };
		}
		const indexEnd = body.indexOf(10);
		const index: unknown = JSON.parse(body.toString("latin1", 0, indexEnd < 0 ? body.length : indexEnd));
		if (!Array.isArray(index)) return { entries };
		// The sessions follow the index in its order, each as long as its entry says: no search for
		// separators (2,000 Buffer.indexOf calls were a third of loading the snapshot). The checksum
		// and the format vouch for the rest of an entry; its id (a path component) and its line's
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
		if (typeof header.checkedUnder === "string") checkedUnder = header.checkedUnder;
		if (isSummary(header.stats)) summary = header.stats;
		checkedDirectory = identityOf(header.checkedDirectory);
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

/** A header's [ino, mtimeMs, ctimeMs, size, nlink]; undefined when it is not five numbers. */
function identityOf(value: unknown): DirectoryIdentity | undefined {
	if (!Array.isArray(value) || value.length !== 5 || !value.every((n) => typeof n === "number")) return undefined;
	const [ino, mtimeMs, ctimeMs, size, nlink] = value as number[];
	return { ino, mtimeMs, ctimeMs, size, nlink } as DirectoryIdentity;
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
	const body = Buffer.concat([Buffer.from(`${JSON.stringify(index)}\n`, "latin1"), ...parts]);
	const { checkedUnder, checkedDirectory: d, summary } = snapshot;
	const checkedDirectory = d && [d.ino, d.mtimeMs, d.ctimeMs, d.size, d.nlink];
	const header = JSON.stringify({
		format: FORMAT,
		fields: FIELDS,
		crc32: checksum(body),
		checkedUnder,
		checkedDirectory,
		stats: summary,
	});
	return Buffer.concat([Buffer.from(`${header}\n`), body]);
}

/** Replaces the snapshot; a failure (read-only home, full disk) only costs the next process a slower listing. */
export function saveSnapshot(path: string, snapshot: SnapshotContent): void {
	const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
	try {
		// Not recursive: a home removed meanwhile is not made again for a cache.
		if (!existsSync(dirname(path))) makePrivateDir(dirname(path));
		const fd = openOwnFile(temp, CREATE_FLAGS);
		try {
			const bytes = snapshotBytes(snapshot);
			let written = 0;
			while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
		} finally {
			closeSync(fd);
		}
		renameSync(temp, path);
	} catch {
		try {
			unlinkSync(temp);
		} catch {
			// never written
		}
	}
}

/**
 * Whether a header's `stats` has the shape summarizeSessions gives. The header is outside the
 * checksum; a value that is not such a summary is not used (the next `stats` adds up the entries).
 */
function isSummary(value: unknown): value is SessionStats {
	if (typeof value !== "object" || value === null) return false;
	const stats = value as Record<string, unknown>;
	const counts = ["sessions", "archivedSessions", "records", "messages", "compactions", "bytes"];
	if (!counts.every((key) => typeof stats[key] === "number")) return false;
	if (!isTotals(stats.totals) || typeof stats.byModel !== "object" || stats.byModel === null) return false;
	return Object.values(stats.byModel).every((entry) => isTotals(entry) && typeof entry.sessions === "number");
}

function isTotals(value: unknown): value is Record<string, unknown> {
	if (typeof value !== "object" || value === null) return false;
	const totals = value as Record<string, unknown>;
	return Object.keys(emptyTokenTotals()).every((key) => typeof totals[key] === "number");
}

/**
 * The snapshot's checksum: a CRC-32 (zlib's, Node >= 20.15), which finds a damaged file as well as
 * a cryptographic hash would for a cache nobody forges, without loading node:crypto (milliseconds
 * of every listing's start). Without zlib.crc32 there is none, and the snapshot is not used.
 */
function checksum(bytes: Buffer): number | undefined {
	return typeof zlib.crc32 === "function" ? zlib.crc32(bytes) : undefined;
}
