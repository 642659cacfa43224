import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export interface ChildExit {
	code: number | null;
	signal: NodeJS.Signals | null;
}

export interface ChildOptions {
	/** Run under `ulimit -f <blocks>` (512-byte blocks, sh) in a child shell that ignores SIGXFSZ. */
	fileSizeBlocks?: number;
}

/**
 * A child process of this suite (one of src/children/*.js), talking in lines on stdout. Lines
 * are kept in arrival order; a kill is a real SIGKILL.
 */
export class Child {
	readonly lines: string[] = [];
	readonly exited: Promise<ChildExit>;
	private stderrText = "";
	private readonly listeners = new Set<() => void>();
	private exit: ChildExit | undefined;

	private constructor(private readonly process: ChildProcess) {
		const lines = createInterface({ input: process.stdout! });
		lines.on("line", (line) => {
			this.lines.push(line);
			for (const listener of this.listeners) listener();
		});
		process.stderr!.on("data", (chunk: Buffer) => {
			if (this.stderrText.length < 20_000) this.stderrText += chunk.toString();
		});
		const closed = new Promise<void>((resolve) => lines.once("close", resolve));
		this.exited = new Promise((resolve) => {
			process.once("exit", (code, signal) => {
				// Wait for stdout to drain so that every line the child wrote is seen.
				closed.then(() => {
					this.exit = { code, signal };
					for (const listener of this.listeners) listener();
					resolve(this.exit);
				});
			});
		});
	}

	/** Starts `src/children/<name>.js` with its config as one JSON argument. */
	static start(name: string, config: unknown, options: ChildOptions = {}): Child {
		const script = fileURLToPath(new URL(`../children/${name}.js`, import.meta.url));
		return Child.node([script, JSON.stringify(config)], options);
	}

	/** Starts `node <args>`; the environment is ours unless `env` is given. */
	static node(args: string[], options: ChildOptions & { env?: NodeJS.ProcessEnv } = {}): Child {
		const spawnOptions = {
			stdio: ["ignore", "pipe", "pipe"] as ["ignore", "pipe", "pipe"],
			env: options.env ?? process.env,
		};
		if (options.fileSizeBlocks === undefined) return new Child(spawn(process.execPath, args, spawnOptions));
		const quoted = [process.execPath, ...args].map(shellQuote).join(" ");
		const script = `trap '' XFSZ; ulimit -f ${options.fileSizeBlocks} && exec ${quoted}`;
		return new Child(spawn("/bin/sh", ["-c", script], spawnOptions));
	}

	get pid(): number {
		return this.process.pid ?? -1;
	}

	get stderr(): string {
		return this.stderrText;
	}

	get hasExited(): boolean {
		return this.exit !== undefined;
	}

	kill(signal: NodeJS.Signals = "SIGKILL"): void {
		if (this.exit === undefined) this.process.kill(signal);
	}

	/** Resolves with the first line (already seen or to come) that matches; rejects on exit or timeout. */
	waitForLine(match: (line: string) => boolean, timeoutMs: number): Promise<string> {
		return new Promise((resolve, reject) => {
			const check = () => {
				const found = this.lines.find(match);
				if (found !== undefined) return finish(() => resolve(found));
				if (this.exit) {
					return finish(() =>
						reject(new Error(`child ${this.pid} exited (${describeExit(this.exit!)}) first; stderr: ${this.stderr}`)),
					);
				}
			};
			const timer = setTimeout(
				() => finish(() => reject(new Error(`child ${this.pid} printed no matching line in ${timeoutMs} ms`))),
				timeoutMs,
			);
			const finish = (then: () => void) => {
				clearTimeout(timer);
				this.listeners.delete(check);
				then();
			};
			this.listeners.add(check);
			check();
		});
	}

	/** Waits for the exit, killing the child if it takes longer than timeoutMs. */
	async finish(timeoutMs: number): Promise<ChildExit> {
		const timer = setTimeout(() => this.kill(), timeoutMs);
		try {
			return await this.exited;
		} finally {
			clearTimeout(timer);
		}
	}
}

export function describeExit(exit: ChildExit): string {
	return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}

function shellQuote(value: string): string {
	return `'${value.replaceAll("'", `'\\''`)}'`;
}
