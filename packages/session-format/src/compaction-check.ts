import { InvalidRecordError } from "./errors.js";
import { pathSettingsOf } from "./path-settings.js";
import type { DescendingWalkOptions } from "./path-walk.js";
import { isSideRecord, parentSeqOf } from "./record-kinds.js";
import type { SessionRecord, StoredRecord } from "./records.js";

const PREFIX = "@agent/session-format:";

/**
 * How a store reads the path to a leaf of the log being appended to (records root → leaf), only as
 * far as the walk options say: its own walkPathDescending over what it holds.
 */
export type ReadLogPath = (walk: DescendingWalkOptions) => Promise<StoredRecord[]>;

/**
 * The rules a compaction being appended must follow that need the log: its firstKeptSeq names a
 * record on its own path (or the compaction itself, keeping nothing), and it carries the model
 * and thinking level in force on that path (`pathSettings`), filled in here when the caller did
 * not give them, so that a resume reading only from the compaction on still knows them. Reads
 * the path backwards only as far as it needs: to firstKeptSeq, and for the settings to the
 * previous compaction's kept records (the live context).
 */
export async function checkCompactions(records: SessionRecord[], log: ReadLogPath): Promise<void> {
	for (let index = 0; index < records.length; index++) {
		const record = records[index] as SessionRecord;
		if (record.recordType !== "compaction") continue;
		const needSettings = record.pathSettings === undefined;
		const path = await pathBefore(records, index, log, record.firstKeptSeq, needSettings);
		if (record.firstKeptSeq !== record.seq && !path.some((entry) => entry.seq === record.firstKeptSeq)) {
			throw new InvalidRecordError(
				`${PREFIX} record ${index + 1} of the batch is a compaction keeping from seq ${record.firstKeptSeq}, which is not on its path; pick the seq of a record on the path it compacts (or its own seq to keep nothing)`,
				{ path: "firstKeptSeq", index },
			);
		}
		if (needSettings) record.pathSettings = pathSettingsOf(path);
	}
}

/** The path to the parent of records[index]: its ancestors within the batch, after those in the log. */
async function pathBefore(
	records: readonly SessionRecord[],
	index: number,
	log: ReadLogPath,
	firstKeptSeq: number,
	needSettings: boolean,
): Promise<StoredRecord[]> {
	const batchFirst = (records[0] as SessionRecord).seq;
	const inBatch: StoredRecord[] = [];
	let need = parentSeqOf(records[index] as SessionRecord);
	while (need !== null && need >= batchFirst) {
		const record = records[need - batchFirst] as SessionRecord;
		if (!isSideRecord(record)) inBatch.push(record);
		const parent = parentSeqOf(record);
		need = parent !== null && parent < record.seq ? parent : null;
	}
	inBatch.reverse();
	if (need === null || need === 0) return inBatch;
	const walked = await log(
		needSettings
			? { leafSeq: need, stopAtCompaction: true, reachSeq: firstKeptSeq }
			: { leafSeq: need, stopAtCompaction: false, floorSeq: firstKeptSeq },
	);
	return [...walked, ...inBatch];
}
