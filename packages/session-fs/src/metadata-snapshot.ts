import { closeSync, existsSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import * as zlib from "node:zlib";
import { isSessionId } from "@agent/session-format/reading";
import { type CachedMetadata, ListedSession } from "./listed-session.js";
import { METADATA_KEYS } from "./metadata-fast.js";
import { CREATE_FLAGS, MAX_SNAPSHOT_BYTES, makePrivateDir, openOwnFile, readOwnFileCapped } from "./safe-files.js";

/** A snapshot as loaded: its entries, and the change token they were all checked under (if any). */
export interface Snapshot {
	entries: Map<string, CachedMetadata>;
	checkedUnder?: string;
}

const FORMAT = 6;
/** The metadata fields this code knows: a snapshot written by code that knew others is not used. */
const FIELDS = METADATA_KEYS.join(",");

/** One entry of the index line: [id, ino, mtimeMs, ctimeMs, size, listing time, archived (1) or not (0)]. */
type IndexEntry = [string, number, number, number, number, number, number];

/**
 * The metadata cache of a listing, kept on disk ($AGENT_HOME/cache/metadata-snapshot.json) so
 * that the first listing of a new process (a CLI call, a server start) reads one file instead of
 * an open, a read, a close, a JSON parse and a check of every metadata.json: on the machines
 * measured, those syscalls were most of a listing.
 *
 * Lines: a header (format, the metadata fields known to the writer, the CRC-32 of everything
 * after it, and the store's change token the entries were all checked under), an index (one JSON
 * array: per session its id, its file's identity, its listing time and whether it is archived),
 * then each session's metadata on a line of its own, in the index's order, as JSON.stringify
 * wrote it (UTF-8; the index is ASCII and read as Latin-1). A listing parses the index; a
 * session's metadata is parsed only when something asks for it (ListedSession), and
 * `list --json` prints those lines as they are. Entries are written only from metadata this code
 * checked, so a snapshot whose header and checksum match is used as it is (checking 2,000 entries
 * field by field again cost as much as the stats); one that is missing, damaged, or of another
 * format or field set is ignored. An entry is used only while the metadata.json it came from
 * still has the same inode, times and size (metadata.json is only ever replaced by a rename,
 * which changes all of them), or without looking while the store's change mark still holds the
 * token (metadata-changes.ts). It is written to a temporary file and renamed (no fsync: losing it
 * costs one slower listing), so concurrent writers leave one whole snapshot or the other.
 */
export function loadSnapshot(path: string): Snapshot {
	const entries = new Map<string, CachedMetadata>();
	let checkedUnder: string | undefined;
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
		let start = indexEnd + 1;
		for (const item of index) {
			if (start <= 0 || start > body.length) return { entries: new Map() };
			const next = body.indexOf(10, start);
			const end = next < 0 ? body.length : next;
			const entry = validIndexEntry(item);
			if (entry) {
				const [id, ino, mtimeMs, ctimeMs, size, time, archived] = entry;
				const session = ListedSession.fromText(id, time, archived === 1, body, start, end);
				entries.set(id, { identity: { ino, mtimeMs, ctimeMs, size }, session });
			}
			start = end + 1;
		}
		if (typeof header.checkedUnder === "string") checkedUnder = header.checkedUnder;
	} catch {
		return { entries: new Map() };
	}
	return checkedUnder === undefined ? { entries } : { entries, checkedUnder };
}

function validIndexEntry(item: unknown): IndexEntry | undefined {
	if (!Array.isArray(item) || item.length !== 7 || !isSessionId(item[0])) return undefined;
	for (let i = 1; i < 7; i++) if (typeof item[i] !== "number") return undefined;
	return item as IndexEntry;
}

/** The snapshot file's text for these entries. */
export function snapshotText(entries: Iterable<CachedMetadata>, checkedUnder?: string): string {
	const index: IndexEntry[] = [];
	const lines: string[] = [];
	for (const { identity, session } of entries) {
		const { ino, mtimeMs, ctimeMs, size } = identity;
		index.push([session.id, ino, mtimeMs, ctimeMs, size, session.time, session.archived ? 1 : 0]);
		lines.push(session.json());
	}
	const body = [JSON.stringify(index), ...lines].join("\n");
	const header = JSON.stringify({ format: FORMAT, fields: FIELDS, crc32: checksum(Buffer.from(body)), checkedUnder });
	return `${header}\n${body}`;
}

/** Replaces the snapshot; a failure (read-only home, full disk) only costs the next process a slower listing. */
export function saveSnapshot(path: string, entries: Iterable<CachedMetadata>, checkedUnder?: string): void {
	const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
	try {
		// Not recursive: a home removed meanwhile is not made again for a cache.
		if (!existsSync(dirname(path))) makePrivateDir(dirname(path));
		const fd = openOwnFile(temp, CREATE_FLAGS);
		try {
			const bytes = Buffer.from(snapshotText(entries, checkedUnder));
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
 * The snapshot's checksum: a CRC-32 (zlib's, Node >= 20.15), which finds a damaged file as well as
 * a cryptographic hash would for a cache nobody forges, without loading node:crypto (milliseconds
 * of every listing's start). Without zlib.crc32 there is none, and the snapshot is not used.
 */
function checksum(bytes: Buffer): number | undefined {
	return typeof zlib.crc32 === "function" ? zlib.crc32(bytes) : undefined;
}
