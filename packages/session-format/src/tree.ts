import { type LabelRecord, parentSeqOf, type StoredRecord } from "./records.js";

/** Finds a record by seq; what a path walk needs, so a partial set of records (a backward read) works too. */
export type RecordLookup = (seq: number) => StoredRecord | undefined;

export interface PathResult {
	/** The records from the root (or the first missing ancestor) to the leaf, in order. */
	path: StoredRecord[];
	/** The seq of a parent the walk needed but could not find; absent when the path reaches a root. */
	missingParent?: number;
}

/** Walks parent links from `leafSeq` to a root and returns the path root → leaf. */
export function walkPath(lookup: RecordLookup, leafSeq: number): PathResult {
	const reversed: StoredRecord[] = [];
	let seq: number | null = leafSeq;
	while (seq !== null) {
		const record = lookup(seq);
		if (!record) {
			reversed.reverse();
			return { path: reversed, missingParent: seq };
		}
		reversed.push(record);
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
 */
export class SessionTree {
	private readonly bySeq = new Map<number, StoredRecord>();
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
		const parent = parentSeqOf(record);
		if (parent === null) {
			this.rootSeqs.push(record.seq);
		} else {
			const siblings = this.childSeqs.get(parent);
			if (siblings) siblings.push(record.seq);
			else this.childSeqs.set(parent, [record.seq]);
		}
		if (record.recordType === "label") this.applyLabel(record);
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

	parentOf(seq: number): number | null {
		const record = this.bySeq.get(seq);
		return record ? parentSeqOf(record) : null;
	}

	children(seq: number): readonly number[] {
		return this.childSeqs.get(seq) ?? [];
	}

	roots(): readonly number[] {
		return this.rootSeqs;
	}

	/** Records without children: the tips of every branch, in seq order. */
	leaves(): number[] {
		const out: number[] = [];
		for (const seq of this.bySeq.keys()) if (!this.childSeqs.has(seq)) out.push(seq);
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

	/** The current label of each labelled record (the latest label record for it wins). */
	labels(): ReadonlyMap<number, string> {
		return this.labelBySeq;
	}

	/**
	 * The active leaf: `leafSeq` (metadata.leafSeq, set when "branch" moved the leaf) when it is
	 * given and in the tree, else the last record; null for an empty tree.
	 */
	activeLeaf(leafSeq?: number | null): number | null {
		if (leafSeq !== undefined && leafSeq !== null && this.bySeq.has(leafSeq)) return leafSeq;
		return this.maxSeq === 0 ? null : this.maxSeq;
	}

	/** The path root → leaf; the leaf defaults to the last record. */
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
		const parent = parentSeqOf(record);
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
