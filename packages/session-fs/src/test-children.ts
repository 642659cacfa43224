import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const SCRIPT = fileURLToPath(new URL("../test/child-writer.mjs", import.meta.url));

export interface WriterTask {
	home: string;
	id: string;
	mode: "append" | "lease" | "hold";
	writer?: string;
	count?: number;
	batch?: number;
	pad?: number;
	durability?: "write" | "fsync";
	staleLeaseMs?: number;
	holdMs?: number;
}

/** A writer process (test/child-writer.mjs on the built dist), with what it printed. */
export class WriterProcess {
	readonly process: ChildProcess;
	/** Every append it acknowledged: seq and its own counter i. */
	readonly acks: Array<{ seq: number; i: number }> = [];
	readonly lines: string[] = [];
	stderr = "";
	readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
	private waiters: Array<{ test: () => boolean; resolve: () => void }> = [];

	constructor(readonly task: WriterTask) {
		this.process = spawn(process.execPath, [SCRIPT, JSON.stringify(task)], { stdio: ["pipe", "pipe", "pipe"] });
		let pending = "";
		this.process.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
			pending += chunk;
			let newline = pending.indexOf("\n");
			while (newline >= 0) {
				this.onLine(pending.slice(0, newline));
				pending = pending.slice(newline + 1);
				newline = pending.indexOf("\n");
			}
		});
		this.process.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
			this.stderr += chunk;
		});
		this.exited = new Promise((resolve) => {
			this.process.on("exit", (code, signal) => {
				for (const waiter of this.waiters) waiter.resolve();
				resolve({ code, signal });
			});
		});
	}

	get pid(): number {
		return this.process.pid as number;
	}

	private onLine(line: string): void {
		this.lines.push(line);
		const ack = /^ack (\d+) (\d+)$/.exec(line);
		if (ack) this.acks.push({ seq: Number(ack[1]), i: Number(ack[2]) });
		this.waiters = this.waiters.filter((waiter) => {
			if (!waiter.test()) return true;
			waiter.resolve();
			return false;
		});
	}

	/** Resolves once `test` holds (or the process exited). */
	until(test: () => boolean): Promise<void> {
		if (test() || this.process.exitCode !== null) return Promise.resolve();
		return new Promise((resolve) => this.waiters.push({ test, resolve }));
	}

	printed(prefix: string): boolean {
		return this.lines.some((line) => line.startsWith(prefix));
	}

	/** Tells a holding writer to release its lease. */
	tell(line: string): void {
		this.process.stdin?.write(`${line}\n`);
	}

	async kill(): Promise<void> {
		this.process.kill("SIGKILL");
		await this.exited;
	}
}
