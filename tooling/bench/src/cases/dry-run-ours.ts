import { AgentSessions } from "@agent/session";
import { type Measurement, measureRuns } from "../measure.js";

export interface DryRunOursParams {
	home: string;
	id: string;
	runs: number;
}

/** `agent-sessions compact <id> --dry-run` without --prompts: the runtime's planCompaction (a new runtime each run). */
export async function dryRunOurs(params: DryRunOursParams): Promise<Measurement> {
	return measureRuns(
		params.runs,
		async () => (await AgentSessions.open({ home: params.home })).planCompaction(params.id, { model: "demo" }),
		(preview) => ({
			firstKeptSeq: preview.plan?.firstKeptSeq ?? 0,
			summarized: preview.plan?.parts.reduce((sum, part) => sum + part.messageCount, 0) ?? 0,
			tokensBefore: preview.plan?.tokensBefore ?? 0,
		}),
	);
}
