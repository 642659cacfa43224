import { cpSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { AgentSessions, DEMO_SPEED_ENV } from "@agent/session";
import { sessionPaths } from "@agent/session-fs";
import { type Measurement, measureRuns } from "../measure.js";

export interface CompactOursParams {
	home: string;
	id: string;
	/** A scratch directory: each run compacts a fresh copy of the session there. */
	scratch: string;
	runs: number;
}

/**
 * A whole compaction through the runtime, as `agent-sessions compact <id> --model demo` does it:
 * plan from the log, summarize chunk by chunk through the offline demo model (its 32,000-token
 * window makes a long history go in many chunks; its typing delay is turned off), append the
 * record. The copy of the session each run works on is made untimed.
 */
export async function compactOurs(params: CompactOursParams): Promise<Measurement> {
	process.env[DEMO_SPEED_ENV] = "Infinity";
	const home = join(params.scratch, `compact-${process.pid}`);
	let chunks = 0;
	try {
		return await measureRuns(
			params.runs,
			async () => {
				const sessions = await AgentSessions.open({ home });
				chunks = 0;
				sessions.events.subscribe((event) => {
					if (event.type === "compaction.progress") chunks = event.chunks;
				});
				return sessions.compact(params.id, { model: "demo" });
			},
			(record) => ({
				chunks,
				firstKeptSeq: record?.recordType === "compaction" ? record.firstKeptSeq : 0,
				summaryChars: record?.recordType === "compaction" ? record.summary.length : 0,
			}),
			() => {
				rmSync(home, { recursive: true, force: true });
				const from = sessionPaths(params.home, params.id);
				const to = sessionPaths(home, params.id);
				mkdirSync(dirname(to.dir), { recursive: true, mode: 0o700 });
				cpSync(from.dir, to.dir, { recursive: true });
			},
		);
	} finally {
		rmSync(home, { recursive: true, force: true });
	}
}
