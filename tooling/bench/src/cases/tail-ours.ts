import { createFileStore } from "@agent/session-fs";
import { type Measurement, measureRuns } from "../measure.js";

export interface TailOursParams {
	home: string;
	id: string;
	records: number;
	runs: number;
}

/** Our tail: the last n records, read from the end of the log. */
export async function tailOurs(params: TailOursParams): Promise<Measurement> {
	return measureRuns(
		params.runs,
		() => createFileStore({ home: params.home }).tail(params.id, params.records),
		(records) => ({ records: records.length }),
	);
}
