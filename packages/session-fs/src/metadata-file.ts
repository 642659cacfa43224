// fs.promises, not node:fs/promises: Node loads fs/promises (with readline and the stream stack)
// on first use of the property, so that a listing, which never renames in the background, does not.
import {
	closeSync,
	promises as fsPromises,
	fsyncSync,
	linkSync,
	readdirSync,
	renameSync,
	unlinkSync,
	writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { loadSchemaChecks, type SessionMetadata, tryCheckMetadata } from "@agent/session-format/reading";
import { fastMetadata, type StoredMetadata } from "@agent/session-format/store-kit";
import { markMetadataChanged } from "./metadata-changes.js";
import type { SessionPaths } from "./paths.js";
import { isProcessAlive } from "./process-alive.js";
import { CREATE_FLAGS, MAX_METADATA_BYTES, openOwnFile, readOwnFileCapped } from "./safe-files.js";

/** What metadata.json holds: the store's cache of a session's metadata. */
export type MetadataRead = StoredMetadata;

/** Reads and checks metadata.json; never throws for a missing or damaged file (it is only a cache). */
export async function readMetadataFile(path: string, id: string): Promise<MetadataRead> {
	const read = readOwnFileCapped(path, MAX_METADATA_BYTES);
	if (read.state !== "ok") return read;
	const text = read.bytes.toString("utf8");
	const parsed = parseMetadataText(text, id);
	if (parsed) return parsed;
	await loadSchemaChecks();
	return parseMetadataText(text, id) as MetadataRead;
}

/**
 * metadata.json's text checked; undefined when only the schema can decide and it is not loaded
 * yet (`loadSchemaChecks()` from @agent/session-format, then ask again).
 */
export function parseMetadataText(text: string, id: string): MetadataRead | undefined {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		return { state: "invalid", reason: `not valid JSON (${(error as Error).message})` };
	}
	// The files this store writes are checked by hand (same rules, same output); anything else by the schema.
	let metadata = fastMetadata(value, { reuse: true });
	if (!metadata) {
		const checked = tryCheckMetadata(value);
		if (!checked) return undefined;
		if (!checked.ok) return { state: "invalid", reason: checked.reason };
		metadata = checked.metadata;
	}
	if (metadata.id !== id) return { state: "invalid", reason: `it names session ${metadata.id}, not ${id}` };
	return { state: "ok", metadata };
}

/** Where a session's metadata.json is, and the store's change mark that every write of it replaces. */
export type MetadataPaths = Pick<SessionPaths, "metadata" | "changes">;

let tempCounter = 0;

function writeTemp(path: string, metadata: SessionMetadata, fsync: boolean): string {
	const temp = `${path}.${process.pid}.${++tempCounter}.tmp`;
	const fd = openOwnFile(temp, CREATE_FLAGS);
	try {
		const bytes = Buffer.from(`${JSON.stringify(metadata, null, "\t")}\n`);
		let written = 0;
		while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
		if (fsync) fsyncSync(fd);
	} catch (error) {
		closeSync(fd);
		removeQuietly(temp);
		throw error;
	}
	closeSync(fd);
	return temp;
}

/**
 * Replaces metadata.json atomically: a temp file, then rename, so a crash leaves the old file or
 * the new one. With `fsync` (the store's "fsync" durability) the temp file is flushed before the
 * rename, so a power loss does too. Without it there is no point: the log itself is not flushed
 * then, so after a power loss the cache may be ahead of the log or damaged — either way it no
 * longer matches the log's size and is rebuilt from it. The store's change mark is replaced after
 * the rename (metadata-changes.ts).
 */
export function writeMetadataFile(paths: MetadataPaths, metadata: SessionMetadata, fsync: boolean): void {
	const temp = writeTemp(paths.metadata, metadata, fsync);
	try {
		renameSync(temp, paths.metadata);
	} catch (error) {
		removeQuietly(temp);
		throw error;
	}
	markMetadataChanged(paths.changes);
}

/**
 * writeMetadataFile with the rename done on the thread pool. Replacing an existing file by a
 * rename makes ext4 (auto_da_alloc) push the new file's data towards the disk, which can hold the
 * calling thread for milliseconds; a lease holder's coalesced flushes should not stop its appends
 * for that. The temp file is written (and, with `fsync`, flushed) here, synchronously.
 */
export async function writeMetadataFileInBackground(paths: MetadataPaths, metadata: SessionMetadata, fsync: boolean) {
	const temp = writeTemp(paths.metadata, metadata, fsync);
	try {
		await fsPromises.rename(temp, paths.metadata);
	} catch (error) {
		removeQuietly(temp);
		throw error;
	}
	markMetadataChanged(paths.changes);
}

/**
 * Creates metadata.json only if there is none (link fails when the name exists): how a reader
 * that rebuilt a missing cache stores it without ever replacing what a writer wrote meanwhile.
 */
export function createMetadataFileIfAbsent(paths: MetadataPaths, metadata: SessionMetadata): boolean {
	let temp: string;
	try {
		temp = writeTemp(paths.metadata, metadata, false);
	} catch {
		return false;
	}
	try {
		linkSync(temp, paths.metadata);
		markMetadataChanged(paths.changes);
		return true;
	} catch {
		return false;
	} finally {
		removeQuietly(temp);
	}
}

/**
 * Removes the temp files of metadata writers on this host that died between writing a temp file
 * and renaming it (a SIGKILL, an OOM kill): nothing else ever removes them, so each such crash
 * would leave one behind for good. A temp file is named after its writer's pid, and exists only
 * during one synchronous write, so one whose pid is gone is garbage. Returns how many it removed.
 */
export function removeDeadWritersTemps(path: string): number {
	const prefix = `${basename(path)}.`;
	let names: string[];
	try {
		names = readdirSync(dirname(path));
	} catch {
		return 0;
	}
	let removed = 0;
	for (const name of names) {
		if (!name.startsWith(prefix) || !name.endsWith(".tmp")) continue;
		const pid = Number(name.slice(prefix.length, name.indexOf(".", prefix.length)));
		if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || isProcessAlive(pid)) continue;
		removeQuietly(join(dirname(path), name));
		removed++;
	}
	return removed;
}

function removeQuietly(path: string): void {
	try {
		unlinkSync(path);
	} catch {
		// already gone
	}
}
