import { listingTime, type SessionMetadata } from "@agent/session-format/reading";
import { cloneMetadata } from "@agent/session-format/store-kit";

/** Where a metadata.json was read from: a file is the same file while all four are the same. */
export interface FileIdentity {
	readonly ino: number;
	readonly mtimeMs: number;
	readonly ctimeMs: number;
	readonly size: number;
}

/**
 * One session as a listing holds it: what it sorts and filters by most often (id, time,
 * archived) at hand, and its metadata either as an object or as the JSON text the snapshot holds
 * (what JSON.stringify wrote, in UTF-8), parsed only when asked. A `list --json` of thousands
 * of sessions then forwards their text without parsing and printing each again: on the machines
 * measured, those two and the garbage they made were a third of the command.
 */
export class ListedSession {
	private parsed: SessionMetadata | undefined;

	// The snapshot's bytes and where the JSON is in them (no object of its own: a listing makes thousands).
	private constructor(
		readonly id: string,
		/** listingTime of the metadata: its sort key. */
		readonly time: number,
		readonly archived: boolean,
		parsed: SessionMetadata | undefined,
		private readonly bytes: Buffer | undefined,
		private readonly start: number,
		private readonly end: number,
	) {
		this.parsed = parsed;
	}

	static of(metadata: SessionMetadata): ListedSession {
		return new ListedSession(
			metadata.id,
			listingTime(metadata),
			metadata.archivedAt !== undefined,
			metadata,
			undefined,
			0,
			0,
		);
	}

	/** An entry of a checked snapshot: `bytes[start, end)` is its metadata as JSON.stringify wrote it, in UTF-8. */
	static fromText(
		id: string,
		time: number,
		archived: boolean,
		bytes: Buffer,
		start: number,
		end: number,
	): ListedSession {
		return new ListedSession(id, time, archived, undefined, bytes, start, end);
	}

	/** The metadata (shared: holders must not change it). */
	get metadata(): SessionMetadata {
		this.parsed ??= JSON.parse(this.json()) as SessionMetadata;
		return this.parsed;
	}

	/** A copy of the metadata for a caller to keep: parsed afresh from the text when nothing parsed it yet. */
	copy(): SessionMetadata {
		return this.parsed ? cloneMetadata(this.parsed) : (JSON.parse(this.json()) as SessionMetadata);
	}

	/** The metadata as JSON.stringify writes it (the snapshot's text itself, when it came from there). */
	json(): string {
		if (this.bytes) return this.bytes.toString("utf8", this.start, this.end);
		return JSON.stringify(this.parsed);
	}

	/**
	 * json() in UTF-8. From the snapshot, a view of its bytes: no string is made, which for a
	 * `list --json` of thousands of sessions was most of its garbage collection.
	 */
	jsonBytes(): Uint8Array {
		if (this.bytes) return this.bytes.subarray(this.start, this.end);
		return Buffer.from(JSON.stringify(this.parsed));
	}
}

/**
 * The sessions directory as a listing found it: its times change when an entry comes, goes or is
 * renamed, and its link count when a subdirectory comes or goes (even within one tick of a clock
 * whose timestamps are coarse).
 */
export interface DirectoryIdentity extends FileIdentity {
	readonly nlink: number;
}

/** Whether two identities are of the same file, unchanged. */
export function sameFile(a: FileIdentity, b: FileIdentity): boolean {
	return a.ino === b.ino && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.size === b.size;
}

/** The order of a listing (S7.5): newest listing time first, then the greater id first. */
export function newestFirst(a: ListedSession, b: ListedSession): number {
	return b.time - a.time || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** A ListedSession read from a metadata.json file, with that file's identity. */
export interface CachedMetadata {
	readonly identity: FileIdentity;
	readonly session: ListedSession;
}
