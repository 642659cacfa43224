import type { Measurement } from "./measure.js";

/** One line of the table: ours, pi and the floor on the same input, each measured in its own process. */
export interface Row {
	section: string;
	label: string;
	ours?: Measurement;
	pi?: Measurement;
	floor?: Measurement;
	/** Bytes of the live path (kept turns + after the compaction), for the memory goal. */
	liveBytes?: number;
	/** Bytes of the input (one session file, or all sessions listed). */
	inputBytes?: number;
	/** Records appended per run. */
	records?: number;
}
