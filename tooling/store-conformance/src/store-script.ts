import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";

/** A script run in a process of its own (see runStoreScript). */
export interface StoreScript {
	child: ChildProcess;
	/** The first line it printed, parsed as JSON (what it made, e.g. a session id). */
	printed: Promise<unknown>;
	/** Its exit code, once it ended. */
	exit: Promise<number | null>;
}

/**
 * Runs `script` with one JSON argument, as a user's script using a store runs: a process of its
 * own, whose end (or not) tells what the store still held (`close` tests). Kill what is still
 * running after the test.
 */
export function runStoreScript(script: string, argument: unknown): StoreScript {
	const child = spawn(process.execPath, [script, JSON.stringify(argument)], { stdio: ["ignore", "pipe", "pipe"] });
	let out = "";
	let err = "";
	child.stderr?.on("data", (chunk) => {
		err += chunk;
	});
	const exit = once(child, "exit").then(([code]) => code as number | null);
	const printed = new Promise<unknown>((resolve, reject) => {
		child.stdout?.on("data", (chunk) => {
			out += chunk;
			const end = out.indexOf("\n");
			if (end >= 0) resolve(JSON.parse(out.slice(0, end)));
		});
		exit.then((code) => reject(new Error(`the script ended (${code}) before it printed: ${err}`)));
	});
	return { child, printed, exit };
}

/** The script's exit code, or "running" when it is still running after `ms`. */
export function exitWithin(script: StoreScript, ms: number): Promise<number | null | "running"> {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<"running">((resolve) => {
		timer = setTimeout(() => resolve("running"), ms);
	});
	return Promise.race([script.exit, late]).finally(() => clearTimeout(timer));
}
