import { type LabelRecord, parentSeqOf, type StoredRecord } from "./records.js";

/** Finds a record by seq; what a path walk needs, so a partial set of records (a backward read) works too. */
export type RecordLookup = (seq: number) => StoredRecord | undefined;

export interface PathResult {
	/** The records from the root (or the first missing ancestor) to the leaf, in order. */
	path: StoredRecord[];
	/** The seq of a parent the walk needed but could not find; absent when the path reaches a root. */
	missingParent?: number;
}

export interface WalkOptions {
	/**
	 * True for a seq whose line was read and skipped (corrupt). The walk bridges over it to the
	 * next earlier seq, as if the skipped line had been a linear record, which is what a
	 * SessionTree built from a full read does. Without it, a missing record ends the walk.
	 */
	isSkipped?: (seq: number) => boolean;
}

/** Walks parent links from `leafSeq` to a root and returns the path root → leaf. */
export function walkPath(lookup: RecordLookup, leafSeq: number, options: WalkOptions = {}): PathResult {
	const reversed: StoredRecord[] = [];
	let seq: number | null = leafSeq;
	while (seq !== null) {
		const record = lookup(seq);
		if (!record) {
			if (seq !== leafSeq && options.isSkipped?.(seq)) {
				seq = seq > 1 ? seq - 1 : null;
				continue;
			}
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
 * A parent that is missing (its line was corrupt and skipped) is bridged: the record hangs
 * from the nearest earlier record there is, as if the missing line had been a linear record,
 * and is still reported by danglingRecords().
 */
export class SessionTree {
	private readonly bySeq = new Map<number, StoredRecord>();
	/** Ascending. */
	private readonly seqs: number[] = [];
	private readonly parentBySeq = new Map<number, number | null>();
	private readonly childSeqs = new Map<number, number[]>();
	private readonly rootSeqs: number[] = [];
	private readonly labelBySeq = new Map<number, string>();

	constructor(records: Iterable<StoredRecord> = []) {
		const list = [...records];
		let ordered = true;
		for (let i = 1; i < list.length && ordered; i++)
			ordered = (list[i - 1] as StoredRecord).seq < (list[i] as StoredRecord).seq;
		if (!ordered) list.sort((a, b) => a.seq - b.seq);
		for (const record of list) this.add(record);
	}

	/**
	 * Adds a record. Records must come in seq order, as a log yields them (the constructor sorts
	 * its input). A second record with a seq already in the tree is ignored: the first one wins
	 * (a log with duplicate seqs is corrupt; `verify` reports it).
	 */
	add(record: StoredRecord): void {
		if (this.bySeq.has(record.seq)) return;
		const declared = parentSeqOf(record);
		const parent = declared === null || this.bySeq.has(declared) ? declared : this.nearestBelow(declared);
		this.bySeq.set(record.seq, record);
		this.insertSeq(record.seq);
		this.parentBySeq.set(record.seq, parent);
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
		return this.seqs.length === 0 ? 0 : (this.seqs[this.seqs.length - 1] as number);
	}

	get(seq: number): StoredRecord | undefined {
		return this.bySeq.get(seq);
	}

	has(seq: number): boolean {
		return this.bySeq.has(seq);
	}

	/** The parent of a record in this tree (a missing parent bridged); null for a root or an unknown seq. */
	parentOf(seq: number): number | null {
		return this.parentBySeq.get(seq) ?? null;
	}

	children(seq: number): readonly number[] {
		return this.childSeqs.get(seq) ?? [];
	}

	roots(): readonly number[] {
		return this.rootSeqs;
	}

	/** Records without children: the tips of every branch, in seq order. */
	leaves(): number[] {
		return this.seqs.filter((seq) => !this.childSeqs.has(seq));
	}

	/** Records with more than one child: where branches split. */
	branchPoints(): number[] {
		return this.seqs.filter((seq) => (this.childSeqs.get(seq)?.length ?? 0) > 1);
	}

	/** Records whose declared parent is not in the tree (a dangling parentSeq, or a corrupt line skipped). */
	danglingRecords(): Array<{ seq: number; parentSeq: number }> {
		const out: Array<{ seq: number; parentSeq: number }> = [];
		for (const seq of this.seqs) {
			const parent = parentSeqOf(this.bySeq.get(seq) as StoredRecord);
			if (parent !== null && !this.bySeq.has(parent)) out.push({ seq, parentSeq: parent });
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
		return this.seqs.length === 0 ? null : this.lastSeq;
	}

	/** The path root → leaf; the leaf defaults to the last record; empty for a seq not in the tree. */
	path(leafSeq: number = this.lastSeq): StoredRecord[] {
		const reversed: StoredRecord[] = [];
		let seq: number | null = this.bySeq.has(leafSeq) ? leafSeq : null;
		while (seq !== null) {
			reversed.push(this.bySeq.get(seq) as StoredRecord);
			seq = this.parentBySeq.get(seq) ?? null;
		}
		return reversed.reverse();
	}

	/** Every record, in seq order. */
	records(): StoredRecord[] {
		return this.seqs.map((seq) => this.bySeq.get(seq) as StoredRecord);
	}

	/** The largest seq in the tree below `seq`, or null. */
	private nearestBelow(seq: number): number | null {
		let low = 0;
		let high = this.seqs.length - 1;
		let found: number | null = null;
		while (low <= high) {
			const mid = (low + high) >> 1;
			const value = this.seqs[mid] as number;
			if (value < seq) {
				found = value;
				low = mid + 1;
			} else high = mid - 1;
		}
		return found;
	}

	private insertSeq(seq: number): void {
		if (this.seqs.length === 0 || (this.seqs[this.seqs.length - 1] as number) < seq) {
			this.seqs.push(seq);
			return;
		}
		const below = this.nearestBelow(seq);
		const index = below === null ? 0 : this.seqs.indexOf(below) + 1;
		this.seqs.splice(index, 0, seq);
	}

	private applyLabel(record: LabelRecord): void {
		if (record.label === undefined || record.label.length === 0) this.labelBySeq.delete(record.targetSeq);
		else this.labelBySeq.set(record.targetSeq, record.label);
	}
}
