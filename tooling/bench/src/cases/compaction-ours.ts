import { prepareCompaction } from "@agent/compaction";
import { DEFAULT_COMPACTION_SETTINGS, type StoredRecord } from "@agent/session-format";
import { createFileStore } from "@agent/session-fs";
import { type Measurement, measureRuns } from "../measure.js";

export interface CompactionOursParams {
	home: string;
	id: string;
	runs: number;
}

/**
 * Our compaction preparation (cut point, file operations, the summarizer's prompt) on the path
 * open() returns; the open itself is untimed (the resume rows time it).
 */
export async function compactionOurs(params: CompactionOursParams): Promise<Measurement> {
	const path: StoredRecord[] = (await createFileStore({ home: params.home }).open(params.id)).path;
	return measureRuns(
		params.runs,
		() => prepareCompaction(path, DEFAULT_COMPACTION_SETTINGS, { contextWindow: 200_000 }),
		(plan) => ({
			pathRecords: path.length,
			firstKeptSeq: plan?.firstKeptSeq ?? 0,
			summarized: plan?.parts.reduce((sum, part) => sum + part.messages.length, 0) ?? 0,
			files: (plan?.readFiles.length ?? 0) + (plan?.modifiedFiles.length ?? 0),
		}),
	);
}
