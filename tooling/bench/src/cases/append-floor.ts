import { appendFileSync, closeSync, fdatasyncSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { appendWorkload } from "../generate/workload.js";
import { type Measurement, measureRuns } from "../measure.js";

export interface AppendFloorParams {
	dir: string;
	records: number;
	/** With fsync: write + fdatasync per record on one open fd (the floor of power-loss-safe appends). */
	fsync: boolean;
	runs: number;
}

/** The floor of appending: a bare loop of appendFileSync(JSON.stringify(record) + "\n"), nothing else. */
export async function appendFloor(params: AppendFloorParams): Promise<Measurement> {
	const records = appendWorkload(params.records);
	let run = 0;
	let file: string | undefined;
	try {
		return await measureRuns(
			params.runs,
			() => {
				if (!file) throw new Error("no file to append to");
				if (!params.fsync) {
					for (const record of records) appendFileSync(file, `${JSON.stringify(record)}\n`);
					return records.length;
				}
				const fd = openSync(file, "a");
				try {
					for (const record of records) {
						writeSync(fd, `${JSON.stringify(record)}\n`);
						fdatasyncSync(fd);
					}
				} finally {
					closeSync(fd);
				}
				return records.length;
			},
			(lines) => ({ lines }),
			() => {
				if (file) rmSync(file, { force: true });
				mkdirSync(params.dir, { recursive: true });
				file = join(params.dir, `floor-${process.pid}-${run++}.jsonl`);
			},
		);
	} finally {
		if (file) rmSync(file, { force: true });
	}
}
