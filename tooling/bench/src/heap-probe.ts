import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { writeHeapSnapshot } from "node:v8";

/**
 * Loaded into a server process by the capacity bench (`--import`, with `--expose-gc`): on SIGUSR2
 * it runs a full garbage collection and appends process.memoryUsage() as a JSON line to the file
 * $BENCH_HEAP_PROBE, so the bench reads the heap the process keeps, not what it has yet to collect.
 * With $BENCH_HEAP_SNAPSHOTS (a directory) it also writes a heap snapshot there each time, to find
 * what grows (compare two in Chrome's DevTools, Memory tab).
 */
const file = process.env.BENCH_HEAP_PROBE;
const snapshots = process.env.BENCH_HEAP_SNAPSHOTS;
let taken = 0;
if (file) {
	process.on("SIGUSR2", () => {
		const gc = (globalThis as { gc?: () => void }).gc;
		gc?.();
		gc?.();
		if (snapshots) writeHeapSnapshot(join(snapshots, `heap-${++taken}.heapsnapshot`));
		appendFileSync(file, `${JSON.stringify({ ...process.memoryUsage(), at: Date.now() })}\n`);
	});
}
