import { type CompactionSettings, SessionManager } from "@mariozechner/pi-coding-agent";
import { cannot, type Measurement, measureRuns } from "../measure.js";

export interface CompactionPiParams {
	path: string;
	runs: number;
}

interface PiPreparation {
	firstKeptEntryId: string;
	messagesToSummarize: unknown[];
	turnPrefixMessages: unknown[];
	fileOps: { read: Set<string>; edited: Set<string>; written: Set<string> };
}

interface PiCompactionModule {
	prepareCompaction(entries: unknown[], settings: CompactionSettings): PiPreparation | undefined;
	DEFAULT_COMPACTION_SETTINGS: CompactionSettings;
}

/** pi's compaction module is not in its package exports; it is loaded from its dist by path. */
async function loadPiCompaction(): Promise<PiCompactionModule> {
	const entry = import.meta.resolve("@mariozechner/pi-coding-agent");
	return (await import(new URL("./core/compaction/compaction.js", entry).href)) as PiCompactionModule;
}

/** pi's prepareCompaction (cut point + file operations) on the branch SessionManager.open gives; the open is untimed. */
export async function compactionPi(params: CompactionPiParams): Promise<Measurement> {
	const pi = await loadPiCompaction();
	let entries: unknown[];
	try {
		entries = SessionManager.open(params.path).getBranch();
	} catch (error) {
		// A file larger than V8's longest string cannot be read by readFileSync(path, "utf8").
		if (error instanceof Error && /string longer than|Invalid string length/i.test(error.message)) {
			return cannot(`${error.constructor.name}: ${error.message.split("\n")[0]}`);
		}
		throw error;
	}
	return measureRuns(
		params.runs,
		() => pi.prepareCompaction(entries, pi.DEFAULT_COMPACTION_SETTINGS),
		(preparation) => ({
			pathEntries: entries.length,
			summarized: (preparation?.messagesToSummarize.length ?? 0) + (preparation?.turnPrefixMessages.length ?? 0),
		}),
	);
}
