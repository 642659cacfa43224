import { createFileStore } from "@agent/session-fs";
import { type Measurement, measureRuns } from "../measure.js";

export interface ListOursParams {
	home: string;
	/** List through one store every run (a server's case: its metadata cache holds unchanged files); else a new store each run. */
	sameStore?: boolean;
	runs: number;
}

/** Our listing: every session's metadata (metadata.json files only), sorted newest first. */
export async function listOurs(params: ListOursParams): Promise<Measurement> {
	const shared = params.sameStore ? createFileStore({ home: params.home }) : undefined;
	return measureRuns(
		params.runs,
		() => (shared ?? createFileStore({ home: params.home })).list(),
		(page) => ({ sessions: page.sessions.length }),
	);
}
