import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Measurement, median } from "../measure.js";

/** The built CLI, as users run it (the bundle of apps/cli). */
export const CLI_BIN = fileURLToPath(new URL("../../../../apps/cli/dist/cli/agent-sessions.cjs", import.meta.url));

export interface CliRunParams {
	/** Arguments after `node`: the CLI's path and its arguments, or `-e 0` for a bare Node start. */
	args: string[];
	runs: number;
}

/**
 * A whole process, start to exit: `node <args>`, its output thrown away. Wall time per run, and
 * CPU time (user + system) of the child from this process's children totals in /proc/self/stat
 * (clock ticks: 10 ms steps, hence medians). The first run warms the page cache and is not timed.
 */
export async function cliRun(params: CliRunParams): Promise<Measurement> {
	const timesMs: number[] = [];
	const cpuMs: number[] = [];
	let firstMs: number | undefined;
	for (let i = 0; i < params.runs; i++) {
		const cpuBefore = childrenCpuMs();
		const started = performance.now();
		const result = spawnSync(process.execPath, params.args, { stdio: ["ignore", "ignore", "pipe"] });
		const elapsed = performance.now() - started;
		if (result.status !== 0) {
			throw new Error(
				`node ${params.args.join(" ")} exited with ${result.status}: ${result.stderr?.toString().slice(0, 500)}`,
			);
		}
		if (i === 0 && params.runs > 1) {
			firstMs = elapsed;
			continue;
		}
		timesMs.push(elapsed);
		cpuMs.push(childrenCpuMs() - cpuBefore);
	}
	return {
		status: "ok",
		timesMs,
		medianMs: median(timesMs),
		cpuMs,
		medianCpuMs: median(cpuMs),
		...(firstMs !== undefined ? { firstMs } : {}),
	};
}

/** cutime + cstime of this process (its waited-for children), in ms; fields 14 and 15 after the name. */
function childrenCpuMs(): number {
	const stat = readFileSync("/proc/self/stat", "utf8");
	const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
	const ticks = Number(fields[13]) + Number(fields[14]);
	return (ticks * 1000) / 100;
}
