import type { RecordInput } from "@agent/session-format";
import { PREFIX } from "./errors.js";

/** The customType of the record that keeps a source's active leaf when it is not the last record. */
export const LEAF_MARKER_TYPE = "interop:leaf";

/**
 * Builds a converted session's records. Seqs are positions (1..n), so a record's seq is known
 * when it is added and later records can point at it.
 */
export class RecordList {
	readonly records: RecordInput[] = [];

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
	 * previous record (the linear default), null a new root.
	 */
	add(record: RecordInput, parent?: number | null): number {
		const seq = this.nextSeq;
		const out = { ...record } as RecordInput;
		delete out.parentSeq;
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

	/** Adds a `custom` record: data kept for tools and round trips, never sent to the LLM. */
	custom(customType: string, data: unknown, parent?: number | null, timestamp?: string): number {
		const record: RecordInput = { recordType: "custom", customType, data };
		if (timestamp !== undefined) record.timestamp = timestamp;
		return this.add(record, parent);
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
