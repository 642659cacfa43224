import { SessionManager } from "@mariozechner/pi-coding-agent";
import { cannot, type Measurement, measureRuns } from "../measure.js";

export interface ResumePiParams {
	path: string;
	runs: number;
}

/** pi's resume: SessionManager.open (reads and parses the whole file) + buildSessionContext. */
export async function resumePi(params: ResumePiParams): Promise<Measurement> {
	try {
		return await measureRuns(
			params.runs,
			() => SessionManager.open(params.path).buildSessionContext(),
			(context) => ({ messages: context.messages.length }),
		);
	} catch (error) {
		// A file larger than V8's longest string cannot be read by readFileSync(path, "utf8").
		if (error instanceof Error && /string longer than|Invalid string length/i.test(error.message)) {
			return cannot(`${error.constructor.name}: ${error.message.split("\n")[0]}`);
		}
		throw error;
	}
}
