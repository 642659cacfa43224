import { existsSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { isSessionId, type SessionMetadata } from "@agent/session-format";
import { fastMetadata } from "./metadata-fast.js";

/** What a metadata.json file held, and the identity of the file it was read from. */
export interface CachedMetadata {
	ino: number;
	mtimeMs: number;
	ctimeMs: number;
	size: number;
	metadata: SessionMetadata;
}

const FORMAT = 1;

/**
 * The metadata cache of a listing, kept on disk ($AGENT_HOME/cache/metadata-snapshot.json) so
 * that the first listing of a new process (a CLI call, a server start) costs one stat per
 * session, as a repeated listing does, instead of an open, a read, a close, a JSON parse and a
 * check of every metadata.json: on the machines measured, those syscalls were most of a listing.
 *
 * Disposable and never trusted blindly: an entry is used only while the metadata.json it came
 * from still has the same inode, times and size (metadata.json is only ever replaced by a
 * rename, which changes all of them), every entry is checked as a metadata.json is, and a
 * snapshot that is missing, damaged or of another format is ignored. It is written to a
 * temporary file and renamed (no fsync: losing it costs one slower listing), so concurrent
 * writers leave one whole snapshot or the other.
 */
export function loadSnapshot(path: string): Map<string, CachedMetadata> {
	const entries = new Map<string, CachedMetadata>();
	let value: unknown;
	try {
		value = JSON.parse(readFileSync(path, "utf8"));
	} catch {
		return entries;
	}
	if (!isObject(value) || value.format !== FORMAT || !Array.isArray(value.sessions)) return entries;
	for (const item of value.sessions) {
		const entry = checkedEntry(item);
		if (entry) entries.set(entry.metadata.id, entry);
	}
	return entries;
}

/** Replaces the snapshot; a failure (read-only home, full disk) only costs the next process a slower listing. */
export function saveSnapshot(path: string, entries: Iterable<CachedMetadata>): void {
	const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
	try {
		// Not recursive: a home removed meanwhile is not made again for a cache.
		if (!existsSync(dirname(path))) mkdirSync(dirname(path));
		writeFileSync(temp, JSON.stringify({ format: FORMAT, sessions: [...entries] }));
		renameSync(temp, path);
	} catch {
		try {
			unlinkSync(temp);
		} catch {
			// never written
		}
	}
}

function checkedEntry(item: unknown): CachedMetadata | undefined {
	if (!isObject(item)) return undefined;
	const { ino, mtimeMs, ctimeMs, size } = item;
	if (!isNumber(ino) || !isNumber(mtimeMs) || !isNumber(ctimeMs) || !isNumber(size)) return undefined;
	const metadata = fastMetadata(item.metadata, { reuse: true });
	if (!metadata || !isSessionId(metadata.id)) return undefined;
	return { ino, mtimeMs, ctimeMs, size, metadata };
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isNumber(value: unknown): value is number {
	return typeof value === "number" && Number.isFinite(value);
}
