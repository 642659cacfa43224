import { isAscii } from "node:buffer";
import { closeSync, existsSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import * as zlib from "node:zlib";
import { isSessionId, type SessionMetadata } from "@agent/session-format/reading";
import { METADATA_KEYS } from "./metadata-fast.js";
import { CREATE_FLAGS, MAX_SNAPSHOT_BYTES, makePrivateDir, openOwnFile, readOwnFileCapped } from "./safe-files.js";

/** What a metadata.json file held, and the identity of the file it was read from. */
export interface CachedMetadata {
	ino: number;
	mtimeMs: number;
	ctimeMs: number;
	size: number;
	metadata: SessionMetadata;
}

const FORMAT = 4;
/** The metadata fields this code knows: a snapshot written by code that knew others is not used. */
const FIELDS = METADATA_KEYS.join(",");

/**
 * The metadata cache of a listing, kept on disk ($AGENT_HOME/cache/metadata-snapshot.json) so
 * that the first listing of a new process (a CLI call, a server start) costs one stat per
 * session, as a repeated listing does, instead of an open, a read, a close, a JSON parse and a
 * check of every metadata.json: on the machines measured, those syscalls were most of a listing.
 *
 * Two lines: a header (format, the metadata fields known to the writer, the CRC-32 of the second
 * line) and the entries, in ASCII (other characters as JSON's \u escapes), which is read as
 * Latin-1: no UTF-8 decoding, and a one-byte string that JSON.parse reads faster. Entries are written only from metadata this code checked, so a
 * snapshot whose header and checksum match is used as it is (checking 2,000 entries field by
 * field again cost as much as the stats); one that is missing, damaged, or of another format
 * or field set is ignored. An entry is used only while the metadata.json it came from still has
 * the same inode, times and size (metadata.json is only ever replaced by a rename, which changes
 * all of them). It is written to a temporary file and renamed (no fsync: losing it costs one
 * slower listing), so concurrent writers leave one whole snapshot or the other.
 */
export function loadSnapshot(path: string): Map<string, CachedMetadata> {
	const entries = new Map<string, CachedMetadata>();
	let items: unknown;
	try {
		const read = readOwnFileCapped(path, MAX_SNAPSHOT_BYTES);
		if (read.state !== "ok") return entries;
		const bytes = read.bytes;
		const newline = bytes.indexOf(10);
		if (newline < 0) return entries;
		const header = JSON.parse(bytes.toString("utf8", 0, newline)) as Record<string, unknown>;
		const body = bytes.subarray(newline + 1);
		const check = checksum(body);
		if (header.format !== FORMAT || header.fields !== FIELDS || check === undefined || header.crc32 !== check) {
			return entries;
		}
		if (!isAscii(body)) return entries;
		items = JSON.parse(body.toString("latin1"));
	} catch {
		return entries;
	}
	if (!Array.isArray(items)) return entries;
	for (const item of items) {
		const entry = item as CachedMetadata;
		if (typeof entry === "object" && entry !== null && isSessionId(entry.metadata?.id)) {
			entries.set(entry.metadata.id, entry);
		}
	}
	return entries;
}

/** The snapshot file's text for these entries. */
export function snapshotText(entries: Iterable<CachedMetadata>): string {
	const body = JSON.stringify([...entries]).replace(NOT_ASCII, escapeChar);
	const header = JSON.stringify({ format: FORMAT, fields: FIELDS, crc32: checksum(Buffer.from(body)) });
	return `${header}\n${body}`;
}

/** Replaces the snapshot; a failure (read-only home, full disk) only costs the next process a slower listing. */
export function saveSnapshot(path: string, entries: Iterable<CachedMetadata>): void {
	const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
	try {
		// Not recursive: a home removed meanwhile is not made again for a cache.
		if (!existsSync(dirname(path))) makePrivateDir(dirname(path));
		const fd = openOwnFile(temp, CREATE_FLAGS);
		try {
			const bytes = Buffer.from(snapshotText(entries));
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

const NOT_ASCII = /[\u0080-\uffff]/g;

/** A UTF-16 code unit as JSON's \uXXXX escape (a pair's halves one by one, which JSON.parse joins again). */
function escapeChar(char: string): string {
	return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * The snapshot's checksum: a CRC-32 (zlib's, Node >= 20.15), which finds a damaged file as well as
 * a cryptographic hash would for a cache nobody forges, without loading node:crypto (milliseconds
 * of every listing's start). Without zlib.crc32 there is none, and the snapshot is not used.
 */
function checksum(bytes: Buffer): number | undefined {
	return typeof zlib.crc32 === "function" ? zlib.crc32(bytes) : undefined;
}
