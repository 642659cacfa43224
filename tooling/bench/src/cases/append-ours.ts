import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { RecordInput, SessionLease } from "@agent/session-format";
import { createFileStore, type Durability } from "@agent/session-fs";
import { appendWorkload } from "../generate/workload.js";
import { type Measurement, measureRuns } from "../measure.js";

export interface AppendOursParams {
	/** A scratch directory; each run appends to a new session in it, removed afterwards. */
	dir: string;
	records: number;
	/** Records per append call (1: one call per record). */
	batch: number;
	durability: Durability;
	runs: number;
}

/** Our append path: take the cross-process lease once, then append `records` through it, `batch` per call. */
export async function appendOurs(params: AppendOursParams): Promise<Measurement> {
	const records = appendWorkload(params.records);
	const batches: RecordInput[][] = [];
	for (let i = 0; i < records.length; i += params.batch) batches.push(records.slice(i, i + params.batch));
	let run = 0;
	let target: { home: string; id: string } | undefined;
	try {
		return await measureRuns(
			params.runs,
			async () => {
				if (!target) throw new Error("no session to append to");
				const store = createFileStore({ home: target.home, durability: params.durability });
				const lease: SessionLease = await store.lease(target.id);
				let last = 0;
				for (const batch of batches) last = (await lease.append(batch)).metadata.lastSeq;
				await lease.release();
				return last;
			},
			(lastSeq) => ({ lastSeq }),
			async () => {
				if (target) rmSync(target.home, { recursive: true, force: true });
				const home = join(params.dir, `ours-${process.pid}-${run++}`);
				mkdirSync(home, { recursive: true });
				target = { home, id: (await createFileStore({ home }).create()).id };
			},
		);
	} finally {
		if (target) rmSync(target.home, { recursive: true, force: true });
	}
}
