import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import type { Entry } from "../generate/conversation.js";
import { toPiEntry } from "../generate/pi-entries.js";
import { messageWorkload } from "../generate/workload.js";
import { type Measurement, measureRuns } from "../measure.js";

export interface AppendPiParams {
	dir: string;
	records: number;
	runs: number;
}

type PiMessage = Parameters<SessionManager["appendMessage"]>[0];

/** pi's append path: SessionManager.appendMessage, one appendFileSync per entry once an assistant message exists. */
export async function appendPi(params: AppendPiParams): Promise<Measurement> {
	const messages = messageWorkload(params.records).map(
		(entry: Entry, index) => (toPiEntry(entry, index) as { message: PiMessage }).message,
	);
	let run = 0;
	let dir: string | undefined;
	try {
		return await measureRuns(
			params.runs,
			() => {
				if (!dir) throw new Error("no directory to append in");
				const manager = SessionManager.create("/work/project", dir);
				for (const message of messages) manager.appendMessage(message);
				return manager.getEntries().length;
			},
			(entries) => ({ entries }),
			() => {
				if (dir) rmSync(dir, { recursive: true, force: true });
				dir = join(params.dir, `pi-${process.pid}-${run++}`);
				mkdirSync(dir, { recursive: true });
			},
		);
	} finally {
		if (dir) rmSync(dir, { recursive: true, force: true });
	}
}
