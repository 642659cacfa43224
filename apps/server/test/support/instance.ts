import { type ChildProcess, spawn } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../dist/bin.js", import.meta.url));

/** A real server process (the built bin) on a free port. */
export interface Instance {
	child: ChildProcess;
	url: string;
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
	return { child, url };
}
