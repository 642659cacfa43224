import type { SessionSpec } from "./generate/datasets.js";

/** The sizes a run uses: full for the figures in docs/benchmarks.md, quick for CI. */
export interface Plan {
	mode: "full" | "quick";
	/** Sessions with a late compaction, smallest first; the live path is the same in each. */
	resume: SessionSpec[];
	/** A linear session (no compaction): resume reads it all; also the compaction-preparation input. */
	linear: SessionSpec;
	/** Linear sessions for compaction preparation, smallest first; the middle one also gets the dry-run and end-to-end rows. */
	compaction: SessionSpec[];
	/** Listings: sessions × bytes each; `pi` false skips pi (its cost is already shown by the others). */
	listings: Array<{ sessions: number; bytesEach: number; pi: boolean }>;
	appendRecords: number;
	/** Records per append call in the batched rows. */
	appendBatch: number;
	tailRecords: number;
	/** The CLI's start-to-exit rows: a session with a late compaction, and a home of many sessions. */
	cli: { session: SessionSpec; listing: { sessions: number; bytesEach: number } };
	/** Runs per timed case (the median is reported): fast cases, and slow ones (pi on large files). */
	runs: { fast: number; slow: number; appends: number };
	/** A child process is killed after this long, and the case reported as a timeout. */
	timeoutMs: number;
}

const MB = 1_000_000;
const KiB = 1024;

export function planFor(mode: "full" | "quick"): Plan {
	if (mode === "full") {
		const live = { keptBytes: 256 * KiB, afterBytes: 768 * KiB };
		return {
			mode,
			resume: [10 * MB, 100 * MB, 1000 * MB].map((bytes) => ({ bytes, live })),
			linear: { bytes: 100 * MB },
			compaction: [10 * MB, 100 * MB, 1000 * MB].map((bytes) => ({ bytes })),
			listings: [
				{ sessions: 2_000, bytesEach: 50_000, pi: true },
				{ sessions: 20_000, bytesEach: 50_000, pi: true },
				{ sessions: 2_000, bytesEach: 500_000, pi: false },
			],
			appendRecords: 10_000,
			appendBatch: 10,
			tailRecords: 20,
			cli: { session: { bytes: 100 * MB, live }, listing: { sessions: 2_000, bytesEach: 50_000 } },
			runs: { fast: 16, slow: 2, appends: 4 },
			timeoutMs: 300_000,
		};
	}
	const live = { keptBytes: 64 * KiB, afterBytes: 192 * KiB };
	return {
		mode,
		resume: [2 * MB, 8 * MB, 32 * MB].map((bytes) => ({ bytes, live })),
		linear: { bytes: 8 * MB },
		compaction: [2 * MB, 8 * MB, 32 * MB].map((bytes) => ({ bytes })),
		listings: [
			{ sessions: 200, bytesEach: 50_000, pi: true },
			{ sessions: 2_000, bytesEach: 50_000, pi: true },
			{ sessions: 200, bytesEach: 500_000, pi: false },
		],
		appendRecords: 1_000,
		appendBatch: 10,
		tailRecords: 20,
		cli: { session: { bytes: 32 * MB, live }, listing: { sessions: 2_000, bytesEach: 50_000 } },
		runs: { fast: 5, slow: 3, appends: 3 },
		timeoutMs: 120_000,
	};
}
