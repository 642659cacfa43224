import { type ChildProcess, spawn } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../dist/bin.js", import.meta.url));

/** A real server process (the built bin) logging JSON lines, which the test can wait for. */
export interface LoggedProcess {
	child: ChildProcess;
	/** Every JSON log line so far. */
	lines: Array<Record<string, unknown>>;
	stdout(): string;
	/** Resolves with the first log line (already written or to come) that matches. */
	line(predicate: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
	/** Resolves with the URL once stdout says `listening on` (the server serves). */
	listening: Promise<string>;
	exited: Promise<number | null>;
}

export function startLogged(args: string[], env: NodeJS.ProcessEnv = {}): LoggedProcess {
	const child = spawn(process.execPath, [BIN, "--log-format", "json", "--port", "0", ...args], {
		env: { PATH: process.env.PATH, HOME: os.tmpdir(), ...env },
		stdio: ["ignore", "pipe", "pipe"],
	});
	const lines: Array<Record<string, unknown>> = [];
	const waiters: Array<{
		predicate: (line: Record<string, unknown>) => boolean;
		resolve: (line: Record<string, unknown>) => void;
	}> = [];
	let pending = "";
	child.stderr?.on("data", (chunk) => {
		pending += chunk;
		let newline = pending.indexOf("\n");
		while (newline >= 0) {
			const text = pending.slice(0, newline);
			pending = pending.slice(newline + 1);
			newline = pending.indexOf("\n");
			let line: Record<string, unknown>;
			try {
				line = JSON.parse(text) as Record<string, unknown>;
			} catch {
				line = { event: "text", text };
			}
			lines.push(line);
			for (const waiter of waiters.splice(0)) {
				if (waiter.predicate(line)) waiter.resolve(line);
				else waiters.push(waiter);
			}
		}
	});
	let stdout = "";
	const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
	const listening = new Promise<string>((resolve, reject) => {
		child.stdout?.on("data", (chunk) => {
			stdout += chunk;
			const match = /^listening on (http:\/\/\S+)\n/.exec(stdout);
			if (match) resolve(match[1] as string);
		});
		exited.then(() => reject(new Error(`the server exited before serving: ${JSON.stringify(lines.slice(-5))}`)));
	});
	listening.catch(() => undefined);
	return {
		child,
		lines,
		stdout: () => stdout,
		listening,
		exited,
		line(predicate, timeoutMs = 30_000) {
			const found = lines.find(predicate);
			if (found) return Promise.resolve(found);
			return new Promise((resolve, reject) => {
				const timer = setTimeout(
					() =>
						reject(new Error(`no such log line within ${timeoutMs} ms; the last: ${JSON.stringify(lines.slice(-5))}`)),
					timeoutMs,
				);
				waiters.push({
					predicate,
					resolve: (line) => {
						clearTimeout(timer);
						resolve(line);
					},
				});
			});
		},
	};
}
