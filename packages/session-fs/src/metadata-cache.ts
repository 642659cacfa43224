import { closeSync, fstatSync, readSync, statSync } from "node:fs";
import { type SessionStats, summarizeSessions } from "@agent/session-format/reading";
import { type CachedMetadata, ListedSession } from "./listed-session.js";
import { parseMetadataText } from "./metadata-file.js";
import { loadSnapshot, saveSnapshot } from "./metadata-snapshot.js";
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
	/**
	 * The store's change token (metadata-changes.ts) read before the last listing that checked
	 * every file: while the token is still that, no metadata.json changed since, and a listing
	 * needs no stat. Undefined: not known.
	 */
	private checkedUnder: string | undefined;
	/** summarizeSessions of the entries in listing order, while they are the ones it was made of. */
	private summary: SessionStats | undefined;
	private buffer = Buffer.allocUnsafe(16 << 10);
	private snapshotLoaded = false;
	private changed = false;

	constructor(private readonly snapshotPath?: string) {}

	/**
	 * Starts a listing under the store's change token, read just before (and before the listing
	 * reads the sessions directory). Returns whether what is held here can be used without a stat:
	 * true when no metadata.json changed since the last listing that checked them all.
	 */
	beginListing(changes: string | undefined): boolean {
		this.loadSnapshotOnce();
		return changes !== undefined && changes === this.checkedUnder;
	}

	/**
	 * Ends a listing that began under `changes`. One that checked every file (not `trusted`)
	 * leaves that token for the next: every file it saw was checked after the token was read.
	 */
	endListing(changes: string | undefined, trusted: boolean): void {
		if (trusted || changes === this.checkedUnder) return;
		this.checkedUnder = changes;
		this.changed = true;
	}

	/**
	 * summarizeSessions of `listed` (every session a listing just gave, in listing order), kept
	 * here and in the snapshot while those are exactly the entries held: a `stats` of the whole
	 * store then reads no session's metadata.
	 */
	summaryOf(listed: readonly ListedSession[]): SessionStats {
		const held = listed.length === this.entries.size && listed.every((s) => this.entries.get(s.id)?.session === s);
		if (held && this.summary) return this.summary;
		const summary = summarizeSessions(listed.map((session) => session.metadata));
		if (held) {
			this.summary = summary;
			this.changed = true;
		}
		return summary;
	}

	/**
	 * The session `id` as held here, without looking at its file: for a listing that beginListing
	 * said may trust what is held. Undefined when not held.
	 */
	held(id: string): ListedSession | undefined {
		this.loadSnapshotOnce();
		return this.entries.get(id)?.session;
	}

	/**
	 * The metadata in `file` (for session `id`), or undefined when it is missing or damaged. A file
	 * held here costs one stat; any other is opened and its identity taken from the open file
	 * (fstat), so what is cached is exactly what was read, and a first listing pays no extra stat.
	 */
	read(file: string, id: string): ListedSession | undefined {
		this.loadSnapshotOnce();
		const cached = this.entries.get(id);
		if (cached) {
			const stat = statSync(file, { throwIfNoEntry: false });
			const { identity } = cached;
			if (
				stat &&
				identity.ino === stat.ino &&
				identity.mtimeMs === stat.mtimeMs &&
				identity.ctimeMs === stat.ctimeMs &&
				identity.size === stat.size
			) {
				return cached.session;
			}
		}
		this.entriesChanged();
		const loaded = this.load(file, id);
		if (loaded) this.entries.set(id, loaded);
		else this.entries.delete(id);
		return loaded?.session;
	}

	/** Forgets the sessions not in `keep` (deleted since). */
	retain(keep: ReadonlySet<string>): void {
		for (const id of this.entries.keys()) {
			if (keep.has(id)) continue;
			this.entries.delete(id);
			this.entriesChanged();
		}
	}

	/** Writes the snapshot when this cache changed since it was loaded or last saved. */
	saveSnapshot(): void {
		if (!this.snapshotPath || !this.changed) return;
		this.changed = false;
		saveSnapshot(this.snapshotPath, {
			entries: this.entries.values(),
			checkedUnder: this.checkedUnder,
			summary: this.summary,
		});
	}

	private entriesChanged(): void {
		this.changed = true;
		this.summary = undefined;
	}

	private loadSnapshotOnce(): void {
		if (this.snapshotLoaded) return;
		this.snapshotLoaded = true;
		if (!this.snapshotPath) return;
		const snapshot = loadSnapshot(this.snapshotPath);
		this.entries = snapshot.entries;
		this.checkedUnder = snapshot.checkedUnder;
		this.summary = snapshot.summary;
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
			const identity = { ino: stat.ino, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, size: stat.size };
			return { identity, session: ListedSession.of(parsed.metadata) };
		} catch {
			return undefined;
		} finally {
			closeSync(fd);
		}
	}
}
