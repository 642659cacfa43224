import { appendFileSync } from "node:fs";

/**
 * Loaded into a server process by the capacity bench (`--import`, with `--expose-gc`): on SIGUSR2
 * it runs a full garbage collection and appends process.memoryUsage() as a JSON line to the file
 * $BENCH_HEAP_PROBE, so the bench reads the heap the process keeps, not what it has yet to collect.
 */
const file = process.env.BENCH_HEAP_PROBE;
if (file) {
	process.on("SIGUSR2", () => {
		const gc = (globalThis as { gc?: () => void }).gc;
		gc?.();
		gc?.();
		appendFileSync(file, `${JSON.stringify({ ...process.memoryUsage(), at: Date.now() })}\n`);
	});
}
