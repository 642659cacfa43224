import { SessionManager } from "@mariozechner/pi-coding-agent";
import { type Measurement, measureRuns } from "../measure.js";

export interface ListPiParams {
	dir: string;
	runs: number;
}

/** pi's listing: SessionManager.list reads and parses every session file to describe it. */
export async function listPi(params: ListPiParams): Promise<Measurement> {
	return measureRuns(
		params.runs,
		() => SessionManager.list("/work/project", params.dir),
		(sessions) => ({ sessions: sessions.length }),
	);
}
