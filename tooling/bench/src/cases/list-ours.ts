import { createFileStore } from "@agent/session-fs";
import { type Measurement, measureRuns } from "../measure.js";

export interface ListOursParams {
	home: string;
	runs: number;
}

/** Our listing: every session's metadata (metadata.json files only), sorted newest first. */
export async function listOurs(params: ListOursParams): Promise<Measurement> {
	return measureRuns(
		params.runs,
		() => createFileStore({ home: params.home }).list(),
		(page) => ({ sessions: page.sessions.length }),
	);
}
