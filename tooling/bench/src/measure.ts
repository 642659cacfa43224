import { writeFileSync } from "node:fs";

/** What one case measured in its own process. */
export interface Measurement {
	status: "ok" | "cannot" | "timeout" | "error";
	/** Why it could not run (status other than ok). */
	reason?: string;
	/** Wall time of each timed run, ms. */
	timesMs: number[];
	medianMs: number;
	/** CPU time (user + system, all threads) of each run, ms: steadier than wall time on a busy machine. */
	cpuMs?: number[];
	medianCpuMs?: number;
	/** The first run in the process (cold: JIT, page cache), ms; not among timesMs when there were more runs. */
	firstMs?: number;
	firstCpuMs?: number;
	/** RSS right before the first run (after a GC), bytes. */
	baselineRss?: number;
	/** Peak RSS (resourceUsage().maxRSS) during the first run, bytes; the peak is reset right before it where Linux allows. */
	peakRss?: number;
	/** False when the peak could not be reset: it may then be an earlier peak (module loading), not the run's. */
	peakIsRunOnly?: boolean;
	/** Case-specific facts (message counts, bytes read, ...). */
	facts?: Record<string, number | string | boolean>;
}

export function median(values: readonly number[]): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = sorted.length >> 1;
	return sorted.length % 2 === 1
		? (sorted[middle] as number)
		: ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Resets the process's peak RSS to its current RSS (Linux: "5" to /proc/self/clear_refs), so the
 * next maxRSS is the peak of what runs after it. False where that is not possible.
 */
function resetPeakRss(): boolean {
	try {
		writeFileSync("/proc/self/clear_refs", "5");
		return true;
	} catch {
		return false;
	}
}

function collectGarbage(): void {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (gc) gc();
}

/**
 * Runs `work` `runs` times. The first run, in a fresh process (each case runs in a child process
 * of its own), gives the memory figures: RSS after a GC before it, and the peak RSS during it.
 * With more than one run it is a warm-up (JIT, page cache) kept apart as `firstMs`, and the
 * others are timed; a single run is timed as it is.
 * `facts` are taken from the last run's result. Set-up in `before` happens before the GC and the baseline.
 */
export async function measureRuns<T>(
	runs: number,
	work: () => Promise<T> | T,
	facts?: (result: T) => Record<string, number | string | boolean>,
	/** Untimed set-up before every run (a fresh session to append to, ...). */
	before?: () => Promise<void> | void,
): Promise<Measurement> {
	const timesMs: number[] = [];
	const cpuMs: number[] = [];
	let baselineRss: number | undefined;
	let peakRss: number | undefined;
	let peakIsRunOnly: boolean | undefined;
	let firstMs: number | undefined;
	let firstCpuMs: number | undefined;
	let last: T | undefined;
	for (let i = 0; i < runs; i++) {
		if (before) await before();
		collectGarbage();
		if (i === 0) {
			baselineRss = process.memoryUsage().rss;
			peakIsRunOnly = resetPeakRss();
		}
		const cpuBefore = process.cpuUsage();
		const started = performance.now();
		last = await work();
		timesMs.push(performance.now() - started);
		const cpu = process.cpuUsage(cpuBefore);
		cpuMs.push((cpu.user + cpu.system) / 1000);
		if (i === 0) {
			peakRss = process.resourceUsage().maxRSS * 1024;
			firstMs = timesMs[0];
			firstCpuMs = cpuMs[0];
			// With more runs to come, the cold first one warms up (JIT, page cache) and is not timed.
			if (runs > 1) {
				timesMs.length = 0;
				cpuMs.length = 0;
			}
		}
		if (i < runs - 1) last = undefined;
	}
	return {
		status: "ok",
		timesMs,
		medianMs: median(timesMs),
		cpuMs,
		medianCpuMs: median(cpuMs),
		firstMs,
		firstCpuMs,
		baselineRss,
		peakRss,
		peakIsRunOnly,
		facts: facts && last !== undefined ? facts(last) : undefined,
	};
}

/** A case that could not run at all (pi at 1 GB), with the error it gave. */
export function cannot(reason: string): Measurement {
	return { status: "cannot", reason, timesMs: [], medianMs: Number.NaN };
}
