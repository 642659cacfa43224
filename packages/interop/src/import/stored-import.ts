import { parentSeqOf, type SessionStore, type StoredRecord } from "@agent/session-format";
import { isObject } from "../json-lines.js";

/** The customType of the record that starts a correction branch (see README, "Sources that grow"). */
export const CORRECTION_TYPE = "interop:correction";
/** In a sub-agent session: the session it was spawned from. */
export const SUBAGENT_OF_TYPE = "interop:subagent-of";
/** In a parent session: a sub-agent session it spawned. */
export const SUBAGENT_TYPE = "interop:subagent";

/** Records the importer adds that are not part of any conversion: links between imported sessions. */
const LINK_TYPES: ReadonlySet<string> = new Set([SUBAGENT_OF_TYPE, SUBAGENT_TYPE]);

/** Importer records that add nothing to a context and are skipped when a stored import is compared with a conversion. */
function isTransparent(record: StoredRecord): boolean {
	return record.recordType === "custom" && (record.customType === CORRECTION_TYPE || LINK_TYPES.has(record.customType));
}

/**
 * An earlier import as the store holds it, read back: which stored record each converted
 * record became (position i of the conversion → `seqAt[i - 1]`). A correction record restarts
 * the mapping at the position it names; link records are not part of it.
 */
export class StoredImport {
	readonly seqAt: number[] = [];
	private readonly records = new Map<number, StoredRecord>();
	/** The link record chained below a record (links hang one under another, below the leaf of the time). */
	private readonly linkBelow = new Map<number, number>();
	/** Link keys already written (customType + linked session id). */
	readonly links = new Set<string>();
	lastSeq = 0;

	static async read(store: SessionStore, id: string): Promise<StoredImport> {
		const stored = new StoredImport();
		for await (const record of store.read(id)) stored.add(record);
		return stored;
	}

	private add(record: StoredRecord): void {
		this.records.set(record.seq, record);
		this.lastSeq = Math.max(this.lastSeq, record.seq);
		if (record.recordType === "custom" && LINK_TYPES.has(record.customType)) {
			const parent = parentSeqOf(record);
			if (parent !== null) this.linkBelow.set(parent, record.seq);
			if (isObject(record.data) && typeof record.data.sessionId === "string") {
				this.links.add(linkKey(record.customType, record.data.sessionId));
			}
			return;
		}
		if (record.recordType === "custom" && record.customType === CORRECTION_TYPE) {
			const from = isObject(record.data) ? record.data.fromRecord : undefined;
			if (typeof from === "number" && Number.isInteger(from) && from >= 1)
				this.seqAt.length = Math.min(this.seqAt.length, from - 1);
			return;
		}
		this.seqAt.push(record.seq);
	}

	get count(): number {
		return this.seqAt.length;
	}

	/** The stored record at a converted position (1-based). */
	at(position: number): StoredRecord | undefined {
		const seq = this.seqAt[position - 1];
		return seq === undefined ? undefined : this.records.get(seq);
	}

	/** A record's parent, read through the importer's own records (corrections, links). */
	parentOf(record: StoredRecord): number | null {
		let parent = parentSeqOf(record);
		while (parent !== null) {
			const above = this.records.get(parent);
			if (!above || !isTransparent(above)) break;
			parent = parentSeqOf(above);
		}
		return parent;
	}

	/** Where a new child of `seq` goes: below the links chained under it, so they stay on the path. */
	attachPoint(seq: number): number {
		let at = seq;
		for (let next = this.linkBelow.get(at); next !== undefined; next = this.linkBelow.get(at)) at = next;
		return at;
	}
}

export function linkKey(customType: string, sessionId: string): string {
	return `${customType}\u0000${sessionId}`;
}
