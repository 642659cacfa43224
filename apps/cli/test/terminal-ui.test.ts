import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BIN, cleanEnv, cliAt, jsonl, tempHome, userBody } from "./cli-harness.js";

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * Runs the CLI in a real pseudo-terminal (util-linux `script`), typing `keys` once the screen
 * shows `ready`. Resolves with everything the terminal showed and the exit code.
 */
function inTerminal(
	args: readonly string[],
	options: { env?: NodeJS.ProcessEnv; ready?: string; keys?: string[] } = {},
): Promise<{ code: number | null; screen: string }> {
	const command = [process.execPath, BIN, ...args].map(quote).join(" ");
	const child = spawn("script", ["-qfec", command, "/dev/null"], {
		env: options.env ?? cleanEnv({ TERM: "xterm", COLUMNS: "100", LINES: "30" }),
		stdio: ["pipe", "pipe", "pipe"],
	});
	let screen = "";
	let typed = false;
	child.stdout.setEncoding("utf8").on("data", async (chunk: string) => {
		screen += chunk;
		if (typed || !options.ready || !screen.includes(options.ready)) return;
		typed = true;
		for (const key of options.keys ?? []) {
			child.stdin.write(key);
			await new Promise((resolve) => setTimeout(resolve, 150));
		}
	});
	return new Promise((resolve, reject) => {
		child.on("error", reject);
		child.on("close", (code) => resolve({ code, screen }));
	});
}

const plain = (text: string) => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
/** The last line the terminal shows (a redraw returns to a line's start with a carriage return). */
const lastLine = (screen: string) =>
	plain(screen)
		.trim()
		.split(/\r\n|\r|\n/)
		.at(-1)
		?.trim();

describe("pick", () => {
	it("on a terminal: typing filters, arrow keys move, Enter prints the chosen id", async () => {
		const cli = cliAt(await tempHome());
		const alpha = await cli.create("--name", "alpha notes");
		await cli.create("--name", "beta notes");
		const unnamed = await cli.create();
		await cli.ok(["append", unnamed], { input: jsonl(userBody("deploy the   staging cluster")) });

		const filtered = await inTerminal(["--home", cli.home, "pick"], {
			ready: "pick a session",
			keys: ["notes", "\x1b[B", "\r"],
		});
		expect(filtered.code).toBe(0);
		// Newest first: beta, then alpha; one step down from beta is alpha.
		expect(plain(filtered.screen)).toContain(alpha);
		expect(lastLine(filtered.screen)).toBe(alpha);

		const first = await inTerminal(["--home", cli.home, "pick"], { ready: "pick a session", keys: ["\r"] });
		expect(plain(first.screen)).toContain("deploy the staging cluster");
		expect(lastLine(first.screen)).toBe(unnamed);

		const cancelled = await inTerminal(["--home", cli.home, "pick"], { ready: "pick a session", keys: ["\x1b"] });
		expect(cancelled.code).toBe(1);
		expect(plain(cancelled.screen)).toContain("No session picked.");
	});

	it("Backspace takes back a whole character: an emoji typed and taken back leaves the filter empty, not half of it", async () => {
		const cli = cliAt(await tempHome());
		const plainName = await cli.create("--name", "plain");
		const result = await inTerminal(["--home", cli.home, "pick"], {
			ready: "pick a session",
			keys: ["😀", "\x7f", "\r"],
		});
		expect(result.code).toBe(0);
		expect(lastLine(result.screen)).toBe(plainName);
	});

	it("without a terminal it says to use list and exits 2", async () => {
		const cli = cliAt(await tempHome());
		await cli.create();
		const result = await cli(["pick"]);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain("agent-sessions list");
	});
});

describe("pager", () => {
	it("long output on a terminal goes through $PAGER; piped output never does", async () => {
		const cli = cliAt(await tempHome());
		const id = await cli.create();
		await cli.ok(["append", id], { input: jsonl(userBody("paged words")) });
		const env = cleanEnv({ TERM: "xterm", PAGER: "sed 's/^/PAGED: /'" });
		const paged = await inTerminal(["--home", cli.home, "show", id], { env });
		expect(paged.code).toBe(0);
		expect(plain(paged.screen)).toMatch(/PAGED: .*paged words/);

		const piped = await cli.ok(["show", id], { env });
		expect(piped).toContain("paged words");
		expect(piped).not.toContain("PAGED:");
		const off = await inTerminal(["--home", cli.home, "show", id], { env: { ...env, PAGER: "" } });
		expect(plain(off.screen)).not.toContain("PAGED:");
	});
});
