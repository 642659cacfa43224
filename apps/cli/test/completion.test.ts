import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, cliAt, tempHome } from "./cli-harness.js";

/**
 * The completion scripts, run by the shells they are for: each test sources the script the CLI
 * prints, puts a wrapper named `agent-sessions` (this build, on a test home) where the script
 * calls the CLI, and asks the shell what it completes for a command line.
 */

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** A shell the test needs: where it is installed it runs; without it, skipped, except under CI. */
function needs(shell: string): boolean {
	const found = spawnSync("sh", ["-c", `command -v ${shell}`]).status === 0;
	return found || process.env.CI === "true";
}

/** Runs `program` with the shell and resolves with its stdout, one entry per line. */
function run(shell: string, args: string[], program: string): Promise<string[]> {
	return new Promise((resolve, reject) => {
		const child = spawn(shell, [...args, program], { env: cleanEnv() });
		let out = "";
		let err = "";
		child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
			out += chunk;
		});
		child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
			err += chunk;
		});
		child.on("error", reject);
		child.on("close", (code) => {
			if (code !== 0) reject(new Error(`${shell} exited ${code}: ${err}`));
			else resolve(out.split("\n").filter(Boolean));
		});
	});
}

let cli: ReturnType<typeof cliAt>;
let id: string;
/** The CLI of this build on the test home, as the scripts call it (by name). */
let wrapper: string;

beforeAll(async () => {
	cli = cliAt(await tempHome());
	id = await cli.create("--name", "completed");
	wrapper = `${quote(process.execPath)} ${quote(BIN)} --home ${quote(cli.home)}`;
});

/** The script for `shell`, written to a file (the shells' syntax check reads a file). */
async function scriptFile(shell: string): Promise<string> {
	const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "agent-sessions-completion-")), `completion.${shell}`);
	fs.writeFileSync(file, await cli.ok(["completion", shell]));
	return file;
}

describe("completion", () => {
	it("bash: completes commands, a command's options and session ids", async () => {
		const script = await scriptFile("bash");
		const complete = (line: string) => {
			const words = line.split(" ");
			return run(
				"bash",
				["--norc", "-c"],
				[
					`source ${quote(script)}`,
					`agent-sessions() { ${wrapper} "$@"; }`,
					`COMP_WORDS=(${words.map(quote).join(" ")}); COMP_CWORD=${words.length - 1}`,
					// biome-ignore lint/suspicious/noTemplateCurlyInString: bash expands it
					"_agent_sessions; printf '%s\\n' \"${COMPREPLY[@]}\"",
				].join("\n"),
			);
		};
		expect(await complete("agent-sessions sh")).toEqual(["show"]);
		expect(await complete("agent-sessions list --c")).toEqual(["--cwd"]);
		expect(await complete("agent-sessions show --fr")).toEqual(["--from"]);
		expect(await complete(`agent-sessions show ${id.slice(0, 4)}`)).toEqual([id]);
		expect(await complete("agent-sessions create ")).toEqual([]);
		expect((await cli(["completion", "tcsh"])).code).toBe(2);
		expect(await cli.ok(["completion", "--ids"])).toBe(`${id}\tcompleted\n`);
	});

	it.skipIf(!needs("zsh"))("zsh: registers through compinit and bashcompinit, and completes like bash", async () => {
		const script = await scriptFile("zsh");
		expect(spawnSync("zsh", ["-n", script]).status).toBe(0);
		/**
		 * What zsh offers for `line`: the script's function run by bashcompinit's compgen, as its
		 * _bash_complete runs it, then the prefix filter of zsh's compadd (which compgen leaves to it).
		 */
		const complete = async (line: string) => {
			const words = line.split(" ");
			const offered = await run(
				"zsh",
				["-f", "-c"],
				[
					"autoload -U compinit && compinit -u -D",
					`source ${quote(script)}`,
					`agent-sessions() { ${wrapper} "$@"; }`,
					// The completion compdef registered for the command (what `complete -F` made of it).
					'print -r -- "registered: $_comps[agent-sessions]"',
					`words=(${words.map(quote).join(" ")}); CURRENT=${words.length}`,
					// biome-ignore lint/suspicious/noTemplateCurlyInString: zsh expands it
					'COMP_WORDS=("${words[@]}"); COMP_CWORD=$((CURRENT - 1))',
					'compgen -F _agent_sessions -- "$words[CURRENT]"',
				].join("\n"),
			);
			expect(offered[0]).toBe("registered: _bash_complete -o default -F _agent_sessions");
			const word = words.at(-1) ?? "";
			return offered.slice(1).filter((candidate) => candidate.startsWith(word));
		};
		expect(await complete("agent-sessions sh")).toEqual(["show"]);
		expect(await complete("agent-sessions list --c")).toEqual(["--cwd"]);
		expect(await complete("agent-sessions show --fr")).toEqual(["--from"]);
		expect(await complete(`agent-sessions show ${id.slice(0, 4)}`)).toEqual([id]);
		expect(await complete("agent-sessions create ")).toEqual([]);
	});

	it.skipIf(!needs("fish"))(
		"fish: completes commands with their descriptions, options and session ids with names",
		async () => {
			const script = await scriptFile("fish");
			expect(spawnSync("fish", ["--no-execute", script]).status).toBe(0);
			const complete = (line: string) =>
				run(
					"fish",
					["--no-config", "-c"],
					[
						`source ${quote(script)}`,
						`function agent-sessions; ${wrapper} $argv; end`,
						// fish's own completion of a command line, as at a prompt.
						`complete --do-complete=${quote(line)}`,
					].join("\n"),
				);
			expect(await complete("agent-sessions sh")).toEqual([expect.stringMatching(/^show\tprint a session's records/)]);
			expect(await complete("agent-sessions list --c")).toEqual(["--cwd"]);
			expect(await complete("agent-sessions show --fr")).toEqual(["--from"]);
			expect(await complete(`agent-sessions show ${id.slice(0, 4)}`)).toEqual([`${id}\tcompleted`]);
			expect(await complete("agent-sessions create ")).toEqual([]);
		},
	);
});
