import { closeSync, fstatSync, readSync, statSync } from "node:fs";
import type { SessionMetadata } from "@agent/session-format/reading";
import { parseMetadataText } from "./metadata-file.js";
import { type CachedMetadata, loadSnapshot, saveSnapshot } from "./metadata-snapshot.js";
import { MAX_METADATA_BYTES, openOwnFile, READ_FLAGS } from "./safe-files.js";

/**
 * The metadata.json files a store has read, kept while they are unchanged. metadata.json is only
 * ever replaced by a rename, which brings a new inode and times, so one stat tells whether the
 * copy held here is still the file's: a listing repeated by a server then costs one stat per
 * session instead of an open, a read, a close, a JSON parse and a schema check. With a snapshot
 * path, the cache starts from the snapshot on disk (metadata-snapshot.ts), so that a new
 * process's first listing is as cheap, and writes it back after a listing that changed it.
 * Holders must not change the objects they get (the store hands out copies).
 */
export class MetadataCache {
	private entries = new Map<string, CachedMetadata>();
	private buffer = Buffer.allocUnsafe(16 << 10);
	private snapshotLoaded = false;
	private changed = false;

	constructor(private readonly snapshotPath?: string) {}

	/**
	 * The metadata in `file` (for session `id`), or undefined when it is missing or damaged. A file
	 * held here costs one stat; any other is opened and its identity taken from the open file
	 * (fstat), so what is cached is exactly what was read, and a first listing pays no extra stat.
	 */
	read(file: string, id: string): SessionMetadata | undefined {
		this.loadSnapshotOnce();
		const cached = this.entries.get(id);
		if (cached) {
			const stat = statSync(file, { throwIfNoEntry: false });
			if (
				stat &&
				cached.ino === stat.ino &&
				cached.mtimeMs === stat.mtimeMs &&
				cached.ctimeMs === stat.ctimeMs &&
				cached.size === stat.size
			) {
				return cached.metadata;
			}
		}
		this.changed = true;
		const loaded = this.load(file, id);
		if (loaded) this.entries.set(id, loaded);
		else this.entries.delete(id);
		return loaded?.metadata;
	}

	/** Forgets the sessions not in `keep` (deleted since). */
	retain(keep: ReadonlySet<string>): void {
		for (const id of this.entries.keys()) {
			if (keep.has(id)) continue;
			this.entries.delete(id);
			this.changed = true;
		}
	}

	/** Writes the snapshot when this cache changed since it was loaded or last saved. */
	saveSnapshot(): void {
		if (!this.snapshotPath || !this.changed) return;
		this.changed = false;
		saveSnapshot(this.snapshotPath, this.entries.values());
	}

	private loadSnapshotOnce(): void {
		if (this.snapshotLoaded) return;
		this.snapshotLoaded = true;
		if (this.snapshotPath) this.entries = loadSnapshot(this.snapshotPath);
	}

	private load(file: string, id: string): CachedMetadata | undefined {
		let fd: number;
		try {
			fd = openOwnFile(file, READ_FLAGS);
		} catch {
			return undefined;
		}
		try {
			const stat = fstatSync(fd);
			if (stat.size > MAX_METADATA_BYTES) return undefined;
			if (this.buffer.length < stat.size + 1) this.buffer = Buffer.allocUnsafe(stat.size * 2);
			let length = 0;
			for (;;) {
				const read = readSync(fd, this.buffer, length, this.buffer.length - length, length);
				length += read;
				if (read === 0 || length < this.buffer.length) break;
				const bigger = Buffer.allocUnsafe(this.buffer.length * 2);
				this.buffer.copy(bigger, 0, 0, length);
				this.buffer = bigger;
			}
			const parsed = parseMetadataText(this.buffer.toString("utf8", 0, length), id);
			if (parsed?.state !== "ok") return undefined;
			return {
				ino: stat.ino,
				mtimeMs: stat.mtimeMs,
				ctimeMs: stat.ctimeMs,
				size: stat.size,
				metadata: parsed.metadata,
			};
		} catch {
			return undefined;
		} finally {
			closeSync(fd);
		}
	}
}
