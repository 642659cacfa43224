import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { CLAUDE_CODE_VERSION, CODEX_VERSION } from "@agent/interop";

const run = promisify(execFile);

/** A coding agent from the npm registry, at one version. */
export interface AgentTool {
	/** What the checks call it (and the folder it is installed into). */
	name: "claude-code" | "codex";
	/** The npm package that carries it. */
	spec: string;
	version: string;
	/** The command that runs it, given the folder it was installed into. */
	command(prefix: string): string[];
}

/**
 * The versions checked: the one whose format the export writes, and the newest one checked. A
 * space- or comma-separated list in `variable` checks others instead.
 */
function versions(variable: string, written: string, newest: string): string[] {
	const chosen = process.env[variable]?.split(/[\s,]+/).filter(Boolean);
	return chosen?.length ? chosen : [...new Set([written, newest])];
}

export const CLAUDE_CODE_VERSIONS = versions("AGENT_RESUME_CLAUDE_CODE", CLAUDE_CODE_VERSION, "2.1.332");
export const CODEX_VERSIONS = versions("AGENT_RESUME_CODEX", CODEX_VERSION, "0.171.0");

/**
 * Claude Code: up to 2.1.x a Node script (`cli.js`); later a native binary in a per-platform package
 * (`@anthropic-ai/claude-code-<platform>`) that a postinstall script copies over the main package's
 * `bin/claude.exe`. The platform package's binary is run directly, so a machine that ignores install
 * scripts runs the same file.
 */
export function claudeCode(version: string): AgentTool {
	return {
		name: "claude-code",
		spec: "@anthropic-ai/claude-code",
		version,
		command(prefix) {
			const scope = path.join(prefix, "node_modules", "@anthropic-ai");
			const main = path.join(scope, "claude-code");
			const manifest = JSON.parse(fs.readFileSync(path.join(main, "package.json"), "utf8")) as {
				bin: { claude: string };
			};
			if (manifest.bin.claude.endsWith(".js")) return [process.execPath, path.join(main, manifest.bin.claude)];
			const platform = fs.readdirSync(scope).find((entry) => entry.startsWith("claude-code-"));
			if (!platform) throw new Error(`agent-resume: no platform package of Claude Code under ${scope}`);
			return [path.join(scope, platform, process.platform === "win32" ? "claude.exe" : "claude")];
		},
	};
}

/** Codex: a small Node launcher (`bin/codex.js`) that runs the native binary of its per-platform package. */
export function codex(version: string): AgentTool {
	return {
		name: "codex",
		spec: "@openai/codex",
		version,
		command: (prefix) => [process.execPath, path.join(prefix, "node_modules", "@openai", "codex", "bin", "codex.js")],
	};
}

/** Where the tools are kept between runs: beside the Node binaries bootstrap.mjs fetches (git ignores it). */
export const TOOLS_HOME = fileURLToPath(new URL("../../.bootstrap/agent-tools/", import.meta.url));

export type Installed = { command: string[] } | { skipped: string };

/**
 * The tool at its pinned version, installed with npm into TOOLS_HOME on first use and reused after.
 * It becomes no dependency of ours: npm installs it into a folder of its own, outside the workspace.
 * When the registry cannot be reached the answer is `skipped` (with why), except under CI=true,
 * where the install is tried anyway and its failure is an error: CI must run the check.
 */
export async function installed(tool: AgentTool): Promise<Installed> {
	const prefix = path.join(TOOLS_HOME, `${tool.name}-${tool.version}`);
	if (await works(tool, prefix)) return { command: tool.command(prefix) };
	if (process.env.CI !== "true" && !(await registryReachable())) {
		return { skipped: `the npm registry cannot be reached (npm ping failed), so ${tool.spec} was not installed` };
	}
	// Installed beside the final folder and renamed into place: two runs at once, or an install cut
	// short, never leave a half-installed folder that looks finished.
	const staging = `${prefix}.staging-${process.pid}`;
	fs.rmSync(staging, { recursive: true, force: true });
	fs.mkdirSync(staging, { recursive: true });
	try {
		await run(
			"npm",
			[
				"install",
				"--prefix",
				staging,
				"--no-save",
				"--no-package-lock",
				"--no-audit",
				"--no-fund",
				"--loglevel=error",
				// A cache of its own, deleted after: the tarballs (hundreds of MB) need not stay in ~/.npm too.
				"--cache",
				path.join(staging, ".npm-cache"),
				`${tool.spec}@${tool.version}`,
			],
			{ env: npmEnv(), timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
		);
	} catch (error) {
		fs.rmSync(staging, { recursive: true, force: true });
		throw new Error(`agent-resume: npm could not install ${tool.spec}@${tool.version}: ${firstLine(error)}`, {
			cause: error,
		});
	}
	fs.rmSync(path.join(staging, ".npm-cache"), { recursive: true, force: true });
	if (await works(tool, prefix)) {
		// Another run finished first: keep its folder (it may be running it now).
		fs.rmSync(staging, { recursive: true, force: true });
	} else {
		fs.rmSync(prefix, { recursive: true, force: true });
		fs.renameSync(staging, prefix);
	}
	if (!(await works(tool, prefix))) {
		throw new Error(`agent-resume: ${tool.spec}@${tool.version} installed into ${prefix} but does not run`);
	}
	return { command: tool.command(prefix) };
}

/** True when the tool in `prefix` runs and says it is the pinned version. */
async function works(tool: AgentTool, prefix: string): Promise<boolean> {
	if (!fs.existsSync(prefix)) return false;
	// A home of its own: even `--version` may set up the tool's folder (~/.codex) in the user's.
	const home = fs.mkdtempSync(path.join(os.tmpdir(), "agent-resume-version-"));
	try {
		const [file = "", ...args] = tool.command(prefix);
		const env = { PATH: process.env.PATH, HOME: home };
		const { stdout } = await run(file, [...args, "--version"], { env, timeout: 60_000 });
		return stdout.includes(tool.version);
	} catch {
		return false;
	} finally {
		fs.rmSync(home, { recursive: true, force: true });
	}
}

/** One quick try, without npm's retries (minutes when nothing answers). */
async function registryReachable(): Promise<boolean> {
	try {
		await run("npm", ["ping", "--loglevel=error", "--fetch-retries=0", "--fetch-timeout=20000"], {
			env: npmEnv(),
			timeout: 30_000,
		});
		return true;
	} catch {
		return false;
	}
}

/** npm without update notices (they are network requests of their own). */
function npmEnv(): NodeJS.ProcessEnv {
	return { ...process.env, npm_config_update_notifier: "false" };
}

function firstLine(error: unknown): string {
	const stderr = (error as { stderr?: unknown }).stderr;
	const text = typeof stderr === "string" && stderr.trim() !== "" ? stderr : String(error);
	return text.trim().split("\n").slice(0, 3).join(" ");
}
