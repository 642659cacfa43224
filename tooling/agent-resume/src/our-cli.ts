import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";

const require = createRequire(import.meta.url);
const manifest = require("agent-sessions/package.json") as { bin: Record<string, string> };
/** The built bin of apps/cli: the checks run what users run. */
const CLI = path.join(
	path.dirname(require.resolve("agent-sessions/package.json")),
	manifest.bin["agent-sessions"] as string,
);

/** Runs `agent-sessions --home <home> ...args` and resolves with what it printed. */
export async function agentSessions(
	home: string,
	args: string[],
	options: { input?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ stdout: string; stderr: string }> {
	const child = promisify(execFile)(process.execPath, [CLI, "--home", home, ...args], {
		cwd: options.cwd,
		env: { ...process.env, NO_COLOR: "1", ...options.env },
	});
	if (options.input !== undefined) child.child.stdin?.end(options.input);
	return child;
}

/** A new session holding `records` (record bodies as `append` reads them); resolves with its id. */
export async function sessionWith(home: string, name: string, records: object[]): Promise<string> {
	const id = (await agentSessions(home, ["create", "--name", name])).stdout.trim();
	await agentSessions(home, ["append", id], { input: records.map((r) => `${JSON.stringify(r)}\n`).join("") });
	return id;
}

/** Where an export goes and how to resume it, as the export's own note tells the user. */
export interface ResumeNote {
	/** Where the agent looks for the session. */
	file: string;
	/** The agent's session id. */
	sessionId: string;
}

/**
 * Exports session `id` with `agent-sessions export ID --format claude|codex -o FILE` run in `cwd`,
 * with the agent's folder (`$CLAUDE_CONFIG_DIR`, `$CODEX_HOME`) set to `agentHome`, then puts the file
 * where the note printed after the export says, exactly as a user following it would.
 */
export async function exportForResume(
	home: string,
	id: string,
	format: "claude" | "codex",
	where: { cwd: string; agentHome: string },
): Promise<ResumeNote> {
	const out = path.join(path.dirname(where.agentHome), `export-${id}.${format}.jsonl`);
	const env = format === "claude" ? { CLAUDE_CONFIG_DIR: where.agentHome } : { CODEX_HOME: where.agentHome };
	const { stdout, stderr } = await agentSessions(home, ["export", id, "--format", format, "-o", out], {
		cwd: where.cwd,
		env,
	});
	const note = /put the file at (\S+\.jsonl) and run `(?:claude --resume|codex resume) ([0-9a-f-]{36})`/.exec(
		`${stdout}\n${stderr}`,
	);
	if (!note?.[1] || !note[2]) throw new Error(`agent-resume: the export printed no resume note: ${stdout}${stderr}`);
	await fs.mkdir(path.dirname(note[1]), { recursive: true });
	await fs.copyFile(out, note[1]);
	return { file: note[1], sessionId: note[2] };
}
