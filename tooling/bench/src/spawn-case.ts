import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { CaseName, CaseParams } from "./cases/index.js";
import type { Measurement } from "./measure.js";

const CHILD = fileURLToPath(new URL("./child.js", import.meta.url));

/**
 * Runs a case in a child process of its own (so memory figures are its alone), killing it
 * after `timeoutMs`. A child that dies without answering (out of memory, a crash) is reported
 * with the end of what it printed.
 */
export function spawnCase<N extends CaseName>(name: N, params: CaseParams<N>, timeoutMs: number): Promise<Measurement> {
	return new Promise((resolve) => {
		const child = fork(CHILD, [name, JSON.stringify(params)], {
			execArgv: ["--expose-gc"],
			stdio: ["ignore", "inherit", "pipe", "ipc"],
		});
		let stderr = "";
		child.stderr?.on("data", (chunk: Buffer) => {
			stderr = (stderr + chunk.toString("utf8")).slice(-4000);
			if (process.env.BENCH_VERBOSE) process.stderr.write(chunk);
		});
		let answer: Measurement | undefined;
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			child.kill("SIGKILL");
		}, timeoutMs);
		child.on("message", (message) => {
			answer = message as Measurement;
		});
		child.on("exit", (code, signal) => {
			clearTimeout(timer);
			if (answer) return resolve(answer);
			const failed = (status: Measurement["status"], reason: string): Measurement => ({
				status,
				reason,
				timesMs: [],
				medianMs: Number.NaN,
			});
			if (timedOut) return resolve(failed("timeout", `did not finish in ${Math.round(timeoutMs / 1000)} s`));
			const lastLines = stderr.trim().split("\n").slice(-12).join(" | ");
			if (/heap out of memory|Allocation failed/i.test(stderr)) {
				return resolve(failed("cannot", `ran out of memory (V8 heap): ${lastLines}`));
			}
			resolve(failed("error", `exited with ${signal ?? code} without a result: ${lastLines}`));
		});
	});
}
