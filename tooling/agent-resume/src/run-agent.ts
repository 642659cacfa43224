import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";

export interface AgentRun {
	code: number;
	stdout: string;
	stderr: string;
}

/** Where one run of an agent lives: its own home, its folder (~/.claude, ~/.codex) and the project it works in. */
export interface AgentPlace {
	home: string;
	agentHome: string;
	cwd: string;
}

/** Which session to resume: one by its id, or the project's latest (the tool's own listing picks it). */
export type Which = { sessionId: string } | "latest";

/** Runs an agent (`command`) in `place` to resume a session and ask `question`, against the fake API at `api`. */
export type ResumeInAgent = (
	command: string[],
	place: AgentPlace,
	api: { url: string; proxyEnv: NodeJS.ProcessEnv },
	which: Which,
	question: string,
) => Promise<AgentRun>;

/** A fresh place under `root`: nothing of the user's own home or agent folders is read or written. */
export async function agentPlace(root: string, agentFolder: string): Promise<AgentPlace> {
	const place = {
		home: path.join(root, "home"),
		agentHome: path.join(root, "home", agentFolder),
		cwd: path.join(root, "project"),
	};
	await fs.mkdir(place.agentHome, { recursive: true });
	await fs.mkdir(place.cwd, { recursive: true });
	return place;
}

/**
 * `claude -p --resume <sessionId> <question>` (or `--continue`, the latest session of the project) in
 * `place.cwd`, talking to the Messages API at `api.url`.
 * The environment is built from nothing but PATH: telemetry, error reports, the auto-updater and every
 * other non-essential request are switched off, and the proxy variables send anything else to the fake
 * API, which refuses it.
 */
export const resumeInClaudeCode: ResumeInAgent = (command, place, api, which, question) => {
	const resume = which === "latest" ? ["--continue"] : ["--resume", which.sessionId];
	return runAgent(command, ["-p", ...resume, question], place.cwd, {
		HOME: place.home,
		CLAUDE_CONFIG_DIR: place.agentHome,
		ANTHROPIC_BASE_URL: api.url,
		ANTHROPIC_API_KEY: "sk-ant-fake",
		DISABLE_TELEMETRY: "1",
		DISABLE_ERROR_REPORTING: "1",
		DISABLE_AUTOUPDATER: "1",
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
		...api.proxyEnv,
	});
};

/**
 * `codex exec resume <sessionId> <question>` (or `--last`, the latest session of the project) in
 * `place.cwd`, with Codex's built-in `openai` provider pointed at the Responses API at `api.url`
 * (`openai_base_url`). The provider must stay `openai`: Codex refuses to resume a session under
 * another provider than the one its `session_meta` names.
 * Update checks, analytics and the plugin catalog sync are off; the proxy variables send anything
 * else to the fake API.
 */
export const resumeInCodex: ResumeInAgent = async (command, place, api, which, question) => {
	await fs.writeFile(
		path.join(place.agentHome, "config.toml"),
		[
			`model = "gpt-5.1"`,
			`openai_base_url = "${api.url}/v1"`,
			"check_for_update_on_startup = false",
			"",
			"[analytics]",
			"enabled = false",
			"",
			// Plugins sync a curated catalog from GitHub at start-up.
			"[features]",
			"plugins = false",
			"",
		].join("\n"),
	);
	const resume = which === "latest" ? "--last" : which.sessionId;
	return runAgent(command, ["exec", "--skip-git-repo-check", "resume", resume, question], place.cwd, {
		HOME: place.home,
		CODEX_HOME: place.agentHome,
		CODEX_API_KEY: "sk-fake",
		...api.proxyEnv,
	});
};

function runAgent(command: string[], args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<AgentRun> {
	const [file = "", ...before] = command;
	return new Promise((resolve) => {
		const child = execFile(
			file,
			[...before, ...args],
			{ cwd, env: { PATH: process.env.PATH, ...env }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
			(error, stdout, stderr) => {
				const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
				resolve({ code, stdout, stderr });
			},
		);
		// Nothing to read: a prompt piped in would be added to the question.
		child.stdin?.end();
	});
}
