import { isIsoTimestamp, type RecordInput } from "@agent/session-format";
import { PREFIX } from "./errors.js";
import type { Warnings } from "./warnings.js";

/** The customType of the record that keeps a source's active leaf when it is not the last record. */
export const LEAF_MARKER_TYPE = "interop:leaf";

/**
 * Builds a converted session's records. Seqs are positions (1..n), so a record's seq is known
 * when it is added and later records can point at it.
 */
export class RecordList {
	readonly records: RecordInput[] = [];
	private lastTimestamp: string | undefined;
	private readonly parents = new Set<number>();
	/** The parent of the next record added with the default parent (a branch point), set by branchFrom. */
	private branchParent: number | null | undefined;

	/** `warnings` hears of timestamps that had to be repaired. */
	constructor(private readonly warnings?: Warnings) {}

	/** The seq the next record will get. */
	get nextSeq(): number {
		return this.records.length + 1;
	}

	/** The seq of the last record; 0 when empty. */
	get lastSeq(): number {
		return this.records.length;
	}

	/**
	 * Adds a record and returns its seq. `parent` is the seq of its parent: undefined means the
	 * previous record (the linear default), null a new root. A timestamp that is not ISO 8601
	 * with a zone is normalised when it is a date at all, else the previous record's is used.
	 */
	add(record: RecordInput, parent?: number | null, line?: number): number {
		const seq = this.nextSeq;
		if (parent === undefined && this.branchParent !== undefined) {
			parent = this.branchParent;
			this.branchParent = undefined;
		}
		const resolved = parent === undefined ? seq - 1 : parent;
		if (resolved !== null && resolved >= 1) this.parents.add(resolved);
		const out = { ...record } as RecordInput;
		delete out.parentSeq;
		this.settleTimestamp(out, line);
		if (parent === null) {
			out.parentSeq = null;
		} else if (parent !== undefined && parent !== seq - 1) {
			if (!Number.isInteger(parent) || parent < 1 || parent >= seq) {
				throw new Error(`${PREFIX} internal error: parent ${parent} of record ${seq} is not an earlier record`);
			}
			out.parentSeq = parent;
		}
		this.records.push(out);
		return seq;
	}

	/**
	 * Replaces the record at `seq` with a newer version of it (a source that rewrites a message in
	 * place); it keeps its place in the tree.
	 */
	replace(seq: number, record: RecordInput, line?: number): void {
		const old = this.get(seq);
		if (!old) throw new Error(`${PREFIX} internal error: no record ${seq} to replace`);
		const out = { ...record } as RecordInput;
		delete out.parentSeq;
		this.settleTimestamp(out, line);
		if (old.parentSeq !== undefined) out.parentSeq = old.parentSeq;
		this.records[seq - 1] = out;
	}

	/** Adds a `custom` record: data kept for tools and round trips, never sent to the LLM. */
	custom(customType: string, data: unknown, parent?: number | null, timestamp?: string): number {
		const record: RecordInput = { recordType: "custom", customType, data };
		if (timestamp !== undefined) record.timestamp = timestamp;
		return this.add(record, parent);
	}

	/** Whether a record has children yet. */
	hasChildren(seq: number): boolean {
		return this.parents.has(seq);
	}

	/**
	 * Makes the next record added with the default parent a child of `seq` instead of the
	 * previous record (null: a new root): the source went back in its conversation (a rollback),
	 * and what follows continues from there on a branch of its own.
	 */
	branchFrom(seq: number | null): void {
		this.branchParent = seq;
	}

	/** Whether `ancestor` is on the path from the root to `seq` (a record is its own ancestor). */
	isAncestor(ancestor: number, seq: number): boolean {
		let current: number | null = seq;
		while (current !== null && current >= ancestor) {
			if (current === ancestor) return true;
			const record = this.get(current);
			if (!record) return false;
			current = record.parentSeq === undefined ? (current > 1 ? current - 1 : null) : record.parentSeq;
		}
		return false;
	}

	get(seq: number): RecordInput | undefined {
		return this.records[seq - 1];
	}

	/**
	 * Makes `leafSeq` the active leaf. Our active leaf is the last record, so when the source's
	 * leaf is an earlier one, a marker record is appended as its child: the path, and so the
	 * context, is the leaf's.
	 */
	settleLeaf(leafSeq: number, timestamp?: string): void {
		if (leafSeq < 1 || this.reachesThroughCustom(this.lastSeq, leafSeq)) return;
		this.custom(
			LEAF_MARKER_TYPE,
			{ note: "the source's active leaf is the parent of this record" },
			leafSeq,
			timestamp,
		);
	}

	private settleTimestamp(record: RecordInput, line: number | undefined): void {
		const given = record.timestamp;
		if (given === undefined) {
			if (this.lastTimestamp !== undefined) record.timestamp = this.lastTimestamp;
			return;
		}
		if (isIsoTimestamp(given)) {
			this.lastTimestamp = given;
			return;
		}
		const time = Date.parse(given);
		if (!Number.isNaN(time)) {
			record.timestamp = new Date(time).toISOString();
			this.lastTimestamp = record.timestamp;
			return;
		}
		this.warnings?.add("a timestamp that is not a date; the previous record's time is used", line);
		if (this.lastTimestamp === undefined) delete record.timestamp;
		else record.timestamp = this.lastTimestamp;
	}

	/** Whether walking up from `seq` reaches `ancestor` passing only custom records (which add nothing to a context). */
	private reachesThroughCustom(seq: number, ancestor: number): boolean {
		let current = seq;
		while (current > ancestor) {
			const record = this.get(current);
			if (record?.recordType !== "custom") return false;
			const parent = record.parentSeq === undefined ? current - 1 : record.parentSeq;
			if (parent === null) return false;
			current = parent;
		}
		return current === ancestor;
	}
}
