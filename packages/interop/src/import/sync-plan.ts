import type { RecordInput } from "@agent/session-format";
import { parentPosition, remapReferences } from "./remap.js";
import { sameContent, sameRecord, supersededBy } from "./same-records.js";
import type { StoredImport } from "./stored-import.js";

/** What a re-import has to do to make the stored session end as a fresh import of the source would. */
export type SyncPlan =
	| { kind: "unchanged" }
	/** Append the records from `from` (a position of the conversion) on; `correction` when stored records from there on are superseded. */
	| { kind: "append"; from: number; correction: boolean }
	/** The stored session differs in a way no growth of the source explains: it was continued here. */
	| { kind: "diverged"; at: number };

/**
 * Compares an earlier import with a new conversion of its source. Records are equal when every
 * field and the tree agree (references compared in stored seqs). The first that differs decides:
 * when the new record supersedes it (a response read half way, a record the importer keeps for
 * lines of the source) and everything stored after it came from the source too, the rest is
 * appended as a correction; otherwise the session was continued here and is left alone.
 */
export function planSync(stored: StoredImport, records: readonly RecordInput[], prefixes: readonly string[]): SyncPlan {
	const shared = Math.min(stored.count, records.length);
	const seqOf = (position: number) => stored.seqAt[position - 1] as number;
	for (let position = 1; position <= shared; position++) {
		const input = records[position - 1] as RecordInput;
		const record = stored.at(position);
		const parent = parentPosition(input, position);
		const expected = remapReferences(input, (target) => (target <= shared ? seqOf(target) : -1));
		if (record && sameRecord(record, stored.parentOf(record), expected, parent === null ? null : seqOf(parent)))
			continue;
		if (!record || !supersededBy(record, input, prefixes) || !tailFromSource(stored, records, position, prefixes)) {
			return { kind: "diverged", at: position };
		}
		return { kind: "append", from: position, correction: true };
	}
	if (stored.count === records.length) return { kind: "unchanged" };
	if (stored.count < records.length) return { kind: "append", from: stored.count + 1, correction: false };
	// More stored than converted: records the importer added (a leaf marker) are corrected, anything else was added here.
	return tailFromSource(stored, records, records.length, prefixes, true)
		? { kind: "append", from: records.length + 1, correction: true }
		: { kind: "unchanged" };
}

/** Whether every stored record after `position` is the converted record at its place, or one the importer keeps. */
function tailFromSource(
	stored: StoredImport,
	records: readonly RecordInput[],
	position: number,
	prefixes: readonly string[],
	importerOnly = false,
): boolean {
	for (let later = position + 1; later <= stored.count; later++) {
		const record = stored.at(later);
		if (!record) return false;
		const input = records[later - 1];
		const kept = record.recordType === "custom" && prefixes.some((prefix) => record.customType.startsWith(prefix));
		if (kept) continue;
		if (importerOnly || !input || !sameContent(record, input)) return false;
	}
	return true;
}
