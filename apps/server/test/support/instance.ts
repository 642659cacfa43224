import { type ChildProcess, spawn } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../dist/bin.js", import.meta.url));

/** A real server process (the built bin) on a free port. */
export interface Instance {
	child: ChildProcess;
	url: string;
	/** Everything it wrote to stderr so far (its log). */
	readonly stderr: string;
	/**
	 * Resolves once its stderr (from the offset `from`, default 0) holds a line matching `pattern`;
	 * rejects if it exits first, or after timeoutMs.
	 */
	waitForLog(pattern: RegExp, options?: { from?: number; timeoutMs?: number }): Promise<string>;
}

/** Starts one over `home` with `args` (e.g. `--store URL`) and no provider keys, and waits for its `listening on` line. */
export async function startInstance(home: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Instance> {
	const child = spawn(process.execPath, [BIN, "--home", home, ...args, "--port", "0"], {
		env: { PATH: process.env.PATH, HOME: os.tmpdir(), ...env },
		stdio: ["ignore", "pipe", "pipe"],
	});
	let stdout = "";
	let stderr = "";
	child.stderr?.on("data", (chunk) => {
		stderr += chunk;
	});
	const url = await new Promise<string>((resolve, reject) => {
		child.stdout?.on("data", (chunk) => {
			stdout += chunk;
			const match = /^listening on (http:\/\/\S+)\n/.exec(stdout);
			if (match) resolve(match[1] as string);
		});
		child.on("exit", () => reject(new Error(`the server exited before listening: ${stderr}`)));
	});
	const waitForLog = (pattern: RegExp, { from = 0, timeoutMs = 15_000 } = {}) =>
		new Promise<string>((resolve, reject) => {
			const check = () => {
				const line = stderr
					.slice(from)
					.split("\n")
					.find((candidate) => pattern.test(candidate));
				if (line === undefined) return false;
				done();
				resolve(line);
				return true;
			};
			const onData = () => check();
			const onExit = () => {
				done();
				reject(new Error(`the server exited before logging ${pattern}: ${stderr}`));
			};
			const timer = setTimeout(() => {
				done();
				reject(new Error(`no log line matching ${pattern} within ${timeoutMs} ms: ${stderr}`));
			}, timeoutMs);
			const done = () => {
				clearTimeout(timer);
				child.stderr?.off("data", onData);
				child.off("exit", onExit);
			};
			child.stderr?.on("data", onData);
			child.on("exit", onExit);
			check();
		});
	return {
		child,
		url,
		get stderr() {
			return stderr;
		},
		waitForLog,
	};
}
