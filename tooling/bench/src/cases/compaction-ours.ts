import { prepareCompaction, prepareCompactionFrom } from "@agent/compaction";
import { linearLogSource } from "@agent/session";
import { DEFAULT_COMPACTION_SETTINGS, type StoredRecord } from "@agent/session-format";
import { createFileStore } from "@agent/session-fs";
import { type Measurement, measureRuns } from "../measure.js";

export interface CompactionOursParams {
	home: string;
	id: string;
	runs: number;
	/**
	 * "memory": on the path open() returned, the open untimed (as pi's row: its open is untimed
	 * too); "log": streamed from the log, the read timed, no path in memory.
	 */
	from: "memory" | "log";
}

const OPTIONS = { contextWindow: 200_000 };

/** Our compaction preparation: cut point, file operations and token figures; no prompt is rendered. */
export async function compactionOurs(params: CompactionOursParams): Promise<Measurement> {
	const store = createFileStore({ home: params.home });
	if (params.from === "log") {
		return measureRuns(
			params.runs,
			() => prepareCompactionFrom(linearLogSource(store, params.id), DEFAULT_COMPACTION_SETTINGS, OPTIONS),
			(plan) => facts(plan),
		);
	}
	const path: StoredRecord[] = (await store.open(params.id)).path;
	return measureRuns(
		params.runs,
		() => prepareCompaction(path, DEFAULT_COMPACTION_SETTINGS, OPTIONS),
		(plan) => ({ pathRecords: path.length, ...facts(plan) }),
	);
}

function facts(plan: ReturnType<typeof prepareCompaction>) {
	return {
		firstKeptSeq: plan?.firstKeptSeq ?? 0,
		summarized: plan?.parts.reduce((sum, part) => sum + part.messageCount, 0) ?? 0,
		tokensBefore: plan?.tokensBefore ?? 0,
		files: (plan?.readFiles.length ?? 0) + (plan?.modifiedFiles.length ?? 0),
	};
}
