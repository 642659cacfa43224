import { createFileStore } from "@agent/session-fs";
import { type Measurement, measureRuns } from "../measure.js";

export interface SearchOursParams {
	home: string;
	query: string;
	/** Hits wanted; the store's default (100) stops early, so runs ask for every hit. */
	limit: number;
	runs: number;
}

/** Our full-text search over every session of a home, through a new store each run (as the CLI does). */
export async function searchOurs(params: SearchOursParams): Promise<Measurement> {
	return measureRuns(
		params.runs,
		() => createFileStore({ home: params.home }).search(params.query, { limit: params.limit }),
		(hits) => ({ hits: hits.length, sessions: new Set(hits.map((hit) => hit.sessionId)).size }),
	);
}
