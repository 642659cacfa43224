import { createFileStore } from "@agent/session-fs";
import { type Measurement, measureRuns } from "../measure.js";

export interface ResumeOursParams {
	home: string;
	id: string;
	runs: number;
}

/** Our resume: `open()` = metadata + the live path read backwards + the context built from it. */
export async function resumeOurs(params: ResumeOursParams): Promise<Measurement> {
	return measureRuns(
		params.runs,
		() => createFileStore({ home: params.home }).open(params.id),
		(opened) => ({ messages: opened.context.messages.length, pathRecords: opened.path.length }),
	);
}
