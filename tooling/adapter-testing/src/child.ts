import { type ChildProcess, spawn } from "node:child_process";

/** What a child printed last: one JSON line with `ok`, and on failure the error's `code` and `message`. */
export interface ChildOutcome {
	ok: boolean;
	code?: string | null;
	message?: string;
	[key: string]: unknown;
}

/**
 * A test's script in a process of its own (Node, the task as JSON in argv[2]), with what it
 * printed. The script prints "waiting" at a barrier and goes on when it reads "go"; its last JSON
 * line is its outcome.
 */
export class Child<Outcome extends ChildOutcome = ChildOutcome> {
	readonly process: ChildProcess;
	readonly lines: string[] = [];
	stderr = "";
	readonly outcome: Promise<Outcome>;
	private waiters: Array<() => void> = [];

	constructor(script: string, task: unknown) {
		this.process = spawn(process.execPath, [script, JSON.stringify(task)], { stdio: ["pipe", "pipe", "pipe"] });
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
				if (last) resolve(JSON.parse(last) as Outcome);
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
