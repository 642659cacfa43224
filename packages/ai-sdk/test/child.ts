import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { TestStore } from "./stores.js";

const SCRIPT = fileURLToPath(new URL("./chat-child.mjs", import.meta.url));

/** Runs test/chat-child.mjs in a new process against the test store; resolves with what it printed, parsed. */
export function runChild(target: TestStore, args: string[], input?: string): Promise<unknown> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [SCRIPT, target.kind, target.location, ...args], {
			stdio: ["pipe", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
			stdout += chunk;
		});
		child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
			stderr += chunk;
		});
		child.on("error", reject);
		child.on("exit", (code) => {
			if (code !== 0) reject(new Error(`chat-child ${args.join(" ")} exited with ${code}:\n${stderr}`));
			else resolve(JSON.parse(stdout));
		});
		child.stdin.end(input ?? "");
	});
}
