import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { StoreSpec } from "./test-stores.js";

const SCRIPT = fileURLToPath(new URL("../test/child-run.mjs", import.meta.url));

export interface ChildTask {
	store: StoreSpec;
	sessionId: string;
	action: "run" | "pop" | "transaction";
	input?: string;
	/** Run under session.withLease(). */
	exclusive?: boolean;
	/** Print "waiting" at the model's answer (or before the pop) and go on at "go". */
	barrier?: boolean;
	args?: unknown;
}

export interface ChildOutcome {
	ok: boolean;
	code?: string | null;
	message?: string;
	finalOutput?: string;
	popped?: unknown;
	items?: unknown[];
	inputs?: unknown[];
}

/** test/child-run.mjs in a process of its own, on the built package. */
export class Child {
	readonly process: ChildProcess;
	readonly lines: string[] = [];
	stderr = "";
	readonly outcome: Promise<ChildOutcome>;
	private waiters: Array<() => void> = [];

	constructor(task: ChildTask) {
		this.process = spawn(process.execPath, [SCRIPT, JSON.stringify(task)], { stdio: ["pipe", "pipe", "pipe"] });
		let pending = "";
		this.process.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
			pending += chunk;
			for (let newline = pending.indexOf("\n"); newline >= 0; newline = pending.indexOf("\n")) {
				this.lines.push(pending.slice(0, newline));
				pending = pending.slice(newline + 1);
				for (const wake of this.waiters.splice(0)) wake();
			}
		});
		this.process.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
			this.stderr += chunk;
		});
		this.outcome = new Promise((resolve, reject) => {
			this.process.on("exit", (code) => {
				for (const wake of this.waiters.splice(0)) wake();
				const last = this.lines.findLast((line) => line.startsWith("{"));
				if (last) resolve(JSON.parse(last) as ChildOutcome);
				else reject(new Error(`the child exited with ${code} and no outcome\n${this.stderr}`));
			});
		});
	}

	/** Resolves once the child printed "waiting" (at its barrier), or exited. */
	async waiting(): Promise<void> {
		while (!this.lines.includes("waiting") && this.process.exitCode === null) {
			await new Promise<void>((resolve) => this.waiters.push(resolve));
		}
	}

	get isWaiting(): boolean {
		return this.lines.includes("waiting");
	}

	go(): void {
		this.process.stdin?.write("go\n");
	}
}

const require = createRequire(import.meta.url);
const CLI = join(
	dirname(require.resolve("agent-sessions/package.json")),
	(require("agent-sessions/package.json") as { bin: Record<string, string> }).bin["agent-sessions"] as string,
);

/** The operators' CLI (the built bin of apps/cli) on the given store; what it printed. */
export async function agentSessions(store: StoreSpec, args: string[]): Promise<string> {
	const where = store.kind === "file" ? ["--home", store.home] : ["--store", store.url];
	const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...where, ...args], {
		env: { ...process.env, NO_COLOR: "1" },
	});
	return stdout;
}
