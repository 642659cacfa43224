import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The built binary: the tests run exactly what users run. */
export const BIN = fileURLToPath(new URL("../dist/cli/agent-sessions.cjs", import.meta.url));

export interface CliResult {
	code: number | null;
	stdout: string;
	stderr: string;
}

export interface RunOptions {
	/** Written to stdin, which is then closed. */
	input?: string;
	env?: NodeJS.ProcessEnv;
}

/** An environment without color settings or a home from the outside, so results do not depend on the caller's shell. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env };
	for (const key of [
		"NO_COLOR",
		"FORCE_COLOR",
		"AGENT_HOME",
		"AGENT_STORE",
		"AGENT_MODEL",
		"ANTHROPIC_API_KEY",
		"OPENAI_API_KEY",
	]) {
		delete env[key];
	}
	return { ...env, ...extra };
}

/** Starts the binary; the caller talks to it and waits for it. */
export function spawnCli(
	args: readonly string[],
	options: { env?: NodeJS.ProcessEnv } = {},
): ChildProcessWithoutNullStreams {
	return spawn(process.execPath, [BIN, ...args], { env: options.env ?? cleanEnv(), stdio: "pipe" });
}

/** Runs the binary to completion. */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
	const child = spawnCli(args, options.env ? { env: options.env } : {});
	return finished(child, options.input);
}

/** Collects a child's output until it exits. */
export function finished(child: ChildProcessWithoutNullStreams, input?: string): Promise<CliResult> {
	let stdout = "";
	let stderr = "";
	child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
		stdout += chunk;
	});
	child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
		stderr += chunk;
	});
	child.stdin.on("error", () => {}); // the CLI may exit before reading all of its input
	if (input !== undefined) child.stdin.end(input);
	return new Promise((resolve, reject) => {
		child.on("error", reject);
		child.on("close", (code) => resolve({ code, stdout, stderr }));
	});
}

/** A running CLI: everything it printed so far, and a way to wait for more. */
export interface RunningCli {
	child: ChildProcessWithoutNullStreams;
	/** Everything printed on stdout so far. */
	output(): string;
	/** Resolves with stdout once it contains `text` (at any time since the start); rejects if the CLI exits first. */
	waitFor(text: string | RegExp): Promise<string>;
	/** Resolves when the CLI exits. */
	done: Promise<CliResult>;
}

/** Starts the binary and keeps what it prints, for tests that talk to a long-running command. */
export function startCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv } = {}): RunningCli {
	const child = spawnCli(args, options);
	const done = finished(child);
	let stdout = "";
	let exited = false;
	const waiters = new Set<() => void>();
	child.stdout.on("data", (chunk: string | Buffer) => {
		stdout += chunk.toString();
		for (const check of [...waiters]) check();
	});
	void done.then(() => {
		exited = true;
		for (const check of [...waiters]) check();
	});
	return {
		child,
		done,
		output: () => stdout,
		waitFor(text) {
			return new Promise((resolve, reject) => {
				const check = () => {
					if (typeof text === "string" ? stdout.includes(text) : text.test(stdout)) {
						waiters.delete(check);
						resolve(stdout);
					} else if (exited) {
						waiters.delete(check);
						reject(new Error(`the CLI exited before printing ${String(text)}; it printed: ${stdout}`));
					}
				};
				waiters.add(check);
				check();
			});
		},
	};
}

/** A fresh, empty store home. */
export async function tempHome(): Promise<string> {
	return fs.mkdtemp(path.join(os.tmpdir(), "agent-sessions-cli-"));
}

/** A CLI bound to one home: `cli("list", "--json")`. */
export function cliAt(home: string) {
	const run = (args: readonly string[], options: RunOptions = {}) => runCli(["--home", home, ...args], options);
	return Object.assign(run, {
		home,
		/** Runs a command that must succeed and returns its stdout. */
		async ok(args: readonly string[], options: RunOptions = {}): Promise<string> {
			const result = await run(args, options);
			if (result.code !== 0) {
				throw new Error(`agent-sessions ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
			}
			return result.stdout;
		},
		/** Runs a command that must succeed with --json and returns the parsed output. */
		async json<T = unknown>(args: readonly string[], options: RunOptions = {}): Promise<T> {
			return JSON.parse(await this.ok([...args, "--json"], options)) as T;
		},
		/** Creates a session and returns its id. */
		async create(...args: string[]): Promise<string> {
			return (await this.ok(["create", ...args])).trim();
		},
	});
}

/** Record bodies as append reads them: one JSON object per line. */
export function jsonl(...bodies: object[]): string {
	return `${bodies.map((body) => JSON.stringify(body)).join("\n")}\n`;
}

export function userBody(text: string): object {
	return { recordType: "message", role: "user", content: [{ type: "text", text }] };
}

export function assistantBody(text: string): object {
	return { recordType: "message", role: "assistant", content: [{ type: "text", text }] };
}

/** Where the file store keeps a session's log (DESIGN.md's on-disk layout). */
export function logPath(home: string, id: string): string {
	return path.join(home, "sessions", id, "session.jsonl");
}

export const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** A new home holding one session with one exchange ("hello there", "hi"), and the CLI over it. */
export async function homeWithOneExchange(): Promise<{ cli: ReturnType<typeof cliAt>; id: string }> {
	const cli = cliAt(await tempHome());
	const id = await cli.create();
	await cli.ok(["append", id], { input: jsonl(userBody("hello there"), assistantBody("hi")) });
	return { cli, id };
}
