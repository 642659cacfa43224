import { isSideRecord, parentSeqOf } from "./record-kinds.js";
import type { LabelRecord, StoredRecord } from "./records.js";

/** Finds a record by seq; what a path walk needs, so a partial set of records (a backward read) works too. */
export type RecordLookup = (seq: number) => StoredRecord | undefined;

export interface PathResult {
	/** The records from the root (or the first missing ancestor) to the leaf, in order. */
	path: StoredRecord[];
	/** The seq of a parent the walk needed but could not find; absent when the path reaches a root. */
	missingParent?: number;
}

/**
 * Walks parent links from `leafSeq` to a root and returns the path root → leaf. Side records
 * (see SIDE_RECORD_TYPES) are passed through, never put on the path: a leaf or parent that is
 * a side record stands for that record's own parent.
 */
export function walkPath(lookup: RecordLookup, leafSeq: number): PathResult {
	const reversed: StoredRecord[] = [];
	let seq: number | null = leafSeq;
	while (seq !== null) {
		const record = lookup(seq);
		if (!record) {
			reversed.reverse();
			return { path: reversed, missingParent: seq };
		}
		if (!isSideRecord(record)) reversed.push(record);
		const parent = parentSeqOf(record);
		// Parents are always earlier seqs (enforced by the parser); the guard keeps a corrupt
		// file from looping forever.
		seq = parent !== null && parent < record.seq ? parent : null;
	}
	reversed.reverse();
	return { path: reversed };
}

/**
 * The tree of a session's records. Every record has one parent: the record with seq - 1 when
 * `parentSeq` is absent, `parentSeq` when it is a number, none when it is null (a new root).
 * Side records (names, labels, leaf moves, archive changes, uptime, turns) are kept and looked
 * up like any record but are not nodes of the tree: a record whose parent is a side record hangs
 * from that side record's own (resolved) parent.
 */
export class SessionTree {
	private readonly bySeq = new Map<number, StoredRecord>();
	/** The resolved parent of every record: for a side record, the node it stands for. */
	private readonly resolvedParents = new Map<number, number | null>();
	private readonly childSeqs = new Map<number, number[]>();
	private readonly rootSeqs: number[] = [];
	private readonly labelBySeq = new Map<number, string>();
	private maxSeq = 0;

	constructor(records: Iterable<StoredRecord> = []) {
		for (const record of records) this.add(record);
	}

	/**
	 * Adds a record (records come in log order). A record with a seq already in the tree replaces
	 * the earlier one: the later line wins, as in a backward read (a log with duplicate seqs is
	 * corrupt; `verify` reports it).
	 */
	add(record: StoredRecord): void {
		const previous = this.bySeq.get(record.seq);
		if (previous) this.unlink(previous);
		this.bySeq.set(record.seq, record);
		if (record.seq > this.maxSeq) this.maxSeq = record.seq;
		const parent = this.resolve(parentSeqOf(record));
		this.resolvedParents.set(record.seq, parent);
		if (record.recordType === "label") this.applyLabel(record);
		if (isSideRecord(record)) return;
		if (parent === null) {
			this.rootSeqs.push(record.seq);
		} else {
			const siblings = this.childSeqs.get(parent);
			if (siblings) siblings.push(record.seq);
			else this.childSeqs.set(parent, [record.seq]);
		}
	}

	/** The node `seq` stands for: itself, or for a side record its resolved parent (null: none). */
	resolve(seq: number | null): number | null {
		if (seq === null) return null;
		const record = this.bySeq.get(seq);
		if (!record || !isSideRecord(record)) return seq;
		return this.resolvedParents.get(seq) ?? null;
	}

	get size(): number {
		return this.bySeq.size;
	}

	/** The highest seq seen; 0 for an empty tree. */
	get lastSeq(): number {
		return this.maxSeq;
	}

	get(seq: number): StoredRecord | undefined {
		return this.bySeq.get(seq);
	}

	has(seq: number): boolean {
		return this.bySeq.has(seq);
	}

	/** The parent of `seq` in the tree (side records passed through); null for a root or an unknown seq. */
	parentOf(seq: number): number | null {
		return this.resolvedParents.get(seq) ?? null;
	}

	children(seq: number): readonly number[] {
		return this.childSeqs.get(seq) ?? [];
	}

	roots(): readonly number[] {
		return this.rootSeqs;
	}

	/** Records without children: the tips of every branch, in seq order. Side records are never tips. */
	leaves(): number[] {
		const out: number[] = [];
		for (const [seq, record] of this.bySeq) {
			if (!this.childSeqs.has(seq) && !isSideRecord(record)) out.push(seq);
		}
		return out.sort((a, b) => a - b);
	}

	/** Records with more than one child: where branches split. */
	branchPoints(): number[] {
		const out: number[] = [];
		for (const [seq, children] of this.childSeqs) if (children.length > 1 && this.bySeq.has(seq)) out.push(seq);
		return out.sort((a, b) => a - b);
	}

	/** Records whose parent is not in the tree (a dangling parentSeq, or a corrupt line skipped). */
	danglingRecords(): Array<{ seq: number; parentSeq: number }> {
		const out: Array<{ seq: number; parentSeq: number }> = [];
		for (const record of this.bySeq.values()) {
			const parent = parentSeqOf(record);
			if (parent !== null && !this.bySeq.has(parent)) out.push({ seq: record.seq, parentSeq: parent });
		}
		return out;
	}

	/** True when `seq` is a side record of this tree. */
	isSide(seq: number): boolean {
		const record = this.bySeq.get(seq);
		return record !== undefined && isSideRecord(record);
	}

	/** The current label of each labelled record (the latest label record for it wins). */
	labels(): ReadonlyMap<number, string> {
		return this.labelBySeq;
	}

	/**
	 * The active leaf, derived from the log alone: the last record, or when that is a side record
	 * its resolved parent (for a `leaf_change`, the leaf it moved to; for a name or label, where
	 * the leaf already was). `leafSeq`, when given and in the tree, is used instead of the last
	 * record (a legacy metadata.json leafSeq). Null for an empty tree, a conversation not begun, or a leaf whose line is unreadable.
	 */
	activeLeaf(leafSeq?: number | null): number | null {
		const start = leafSeq !== undefined && leafSeq !== null && this.bySeq.has(leafSeq) ? leafSeq : this.maxSeq;
		const leaf = start === 0 ? null : this.resolve(start);
		// A leaf move to a record whose line was damaged since: there is no conversation to show.
		return leaf !== null && this.bySeq.has(leaf) ? leaf : null;
	}

	/** The path root → leaf (side records passed through, never on it); the leaf defaults to the last record. */
	path(leafSeq: number = this.maxSeq): StoredRecord[] {
		if (leafSeq === 0) return [];
		return walkPath((seq) => this.bySeq.get(seq), leafSeq).path;
	}

	/** Every record, in seq order. */
	records(): StoredRecord[] {
		return [...this.bySeq.values()].sort((a, b) => a.seq - b.seq);
	}

	/** Removes a replaced record from its parent's children (or from the roots). */
	private unlink(record: StoredRecord): void {
		if (isSideRecord(record)) return;
		const parent = this.resolvedParents.get(record.seq) ?? null;
		const list = parent === null ? this.rootSeqs : this.childSeqs.get(parent);
		const index = list ? list.indexOf(record.seq) : -1;
		if (!list || index < 0) return;
		list.splice(index, 1);
		if (parent !== null && list.length === 0) this.childSeqs.delete(parent);
	}

	private applyLabel(record: LabelRecord): void {
		if (record.label === undefined || record.label.length === 0) this.labelBySeq.delete(record.targetSeq);
		else this.labelBySeq.set(record.targetSeq, record.label);
	}
}
