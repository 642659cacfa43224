import { closeSync, fstatSync, readSync, statSync } from "node:fs";
import { type SessionStats, summarizeSessions } from "@agent/session-format/reading";
import { type CachedMetadata, type DirectoryIdentity, ListedSession, newestFirst, sameFile } from "./listed-session.js";
import { parseMetadataText } from "./metadata-file.js";
import { loadSnapshot, saveSnapshot } from "./metadata-snapshot.js";
import { MAX_METADATA_BYTES, openOwnFile, READ_FLAGS } from "./safe-files.js";

/** What a listing may take from what the cache holds without looking (MetadataCache.beginListing). */
export type ListingTrust = "nothing" | "files" | "files-and-directory";

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
	/** The sessions directory's identity, read before that listing read the directory. */
	private checkedDirectory: DirectoryIdentity | undefined;
	/** summarizeSessions of the entries in listing order, while they are the ones it was made of. */
	private summary: SessionStats | undefined;
	private buffer = Buffer.allocUnsafe(16 << 10);
	private snapshotLoaded = false;
	private changed = false;
	private saveScheduled = false;

	constructor(private readonly snapshotPath?: string) {}

	/**
	 * Starts a listing under the store's change token and the sessions directory's identity, both
	 * read just before (and before the listing reads the directory). What is held can be used
	 * without a stat ("files") when no metadata.json changed since the last listing that checked
	 * them all; and without reading the directory ("files-and-directory") when the directory is
	 * also as that listing found it: then the sessions are exactly the ones held (heldSessions).
	 */
	beginListing(changes: string | undefined, directory: DirectoryIdentity): ListingTrust {
		this.loadSnapshotOnce();
		if (changes === undefined || changes !== this.checkedUnder) return "nothing";
		return this.sameDirectory(directory) ? "files-and-directory" : "files";
	}

	/**
	 * Ends a listing that began under `changes` and `directory` and read the directory: every file
	 * it saw was checked after the token was read (or, in a "files" listing, unchanged since the
	 * listing that did), and every entry after the directory's identity was read. The next listing
	 * starts from those.
	 */
	endListing(changes: string | undefined, directory: DirectoryIdentity): void {
		if (changes === this.checkedUnder && this.sameDirectory(directory)) return;
		this.checkedUnder = changes;
		this.checkedDirectory = directory;
		this.changed = true;
	}

	/** Every session held, in listing order when they came from the snapshot: for a "files-and-directory" listing. */
	heldSessions(): ListedSession[] {
		return Array.from(this.entries.values(), (entry) => entry.session);
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
			this.saveSnapshotSoon();
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
			if (stat && sameFile(cached.identity, stat)) return cached.session;
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

	/**
	 * Writes the snapshot (when it changed) once the caller's answer is on its way: the snapshot
	 * only speeds up the next process's first listing.
	 */
	saveSnapshotSoon(): void {
		if (this.saveScheduled) return;
		this.saveScheduled = true;
		setImmediate(() => {
			this.saveScheduled = false;
			this.saveSnapshot();
		});
	}

	/** Writes the snapshot when this cache changed since it was loaded or last saved. */
	saveSnapshot(): void {
		if (!this.snapshotPath || !this.changed) return;
		this.changed = false;
		// In listing order: the next process's listing then sorts what is already sorted.
		const entries = [...this.entries.values()].sort((a, b) => newestFirst(a.session, b.session));
		saveSnapshot(this.snapshotPath, {
			entries,
			checkedUnder: this.checkedUnder,
			checkedDirectory: this.checkedDirectory,
			summary: this.summary,
		});
	}

	private sameDirectory(directory: DirectoryIdentity): boolean {
		const checked = this.checkedDirectory;
		return checked !== undefined && sameFile(checked, directory) && checked.nlink === directory.nlink;
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
		this.checkedDirectory = snapshot.checkedDirectory;
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
