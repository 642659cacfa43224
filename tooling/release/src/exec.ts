import { type SpawnOptions, spawn } from "node:child_process";

export interface RunResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

export interface RunOptions extends SpawnOptions {
	/** Kill the command after this many ms (default 5 minutes). */
	timeoutMs?: number;
	/** Written to the command's stdin, which is then closed. */
	input?: string;
}

/** Runs a command to its end and captures its output; never throws for a non-zero exit. */
export function run(command: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
	const { timeoutMs = 5 * 60_000, input, ...spawnOptions } = options;
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { ...spawnOptions, stdio: ["pipe", "pipe", "pipe"] });
		let stdout = "";
		let stderr = "";
		child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
			stdout += chunk;
		});
		child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
			stderr += chunk;
		});
		const timer = setTimeout(() => {
			stderr += `\n[killed after ${timeoutMs} ms]`;
			child.kill("SIGKILL");
		}, timeoutMs);
		child.on("error", (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on("close", (code, signal) => {
			clearTimeout(timer);
			resolve({ code, signal, stdout, stderr });
		});
		child.stdin?.end(input);
	});
}

/** Runs a command and throws, with its output, unless it exits with 0. */
export async function mustRun(command: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
	const result = await run(command, args, options);
	if (result.code !== 0) {
		throw new Error(
			`\`${command} ${args.join(" ")}\` exited with ${result.code ?? result.signal}\n${result.stdout}\n${result.stderr}`,
		);
	}
	return result;
}

/** The output of a command, for error messages: both streams, trimmed. */
export function output(result: RunResult): string {
	return `${result.stdout}\n${result.stderr}`.trim();
}

/**
 * The environment for commands that must behave as on a user's machine: without what pnpm sets
 * for the script that runs us (its user agent, lifecycle and package variables), which would make
 * npm think pnpm is running it. Registry and proxy settings (npm_config_registry, ...) are kept.
 */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (/^(npm_(package|lifecycle)_|npm_(command|execpath|node_execpath)$|npm_config_user_agent$)/i.test(key)) continue;
		if (/^(pnpm_|PNPM_)|^npm_config_verify_deps_before_run$/i.test(key)) continue;
		env[key] = value;
	}
	return { ...env, NO_COLOR: "1", FORCE_COLOR: "0", ...extra };
}

/** userEnv without API keys or a chosen model or store: what runs with it runs offline. */
export function offlineEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const env = userEnv(extra);
	for (const key of Object.keys(env)) {
		if (/(_API_KEY|_OAUTH_TOKEN)$|^AGENT_(MODEL|STORE)$/.test(key)) delete env[key];
	}
	return env;
}
