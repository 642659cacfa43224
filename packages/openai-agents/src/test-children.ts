import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { StoreSpec } from "@agent/adapter-testing";

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
