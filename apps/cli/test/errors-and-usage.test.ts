import fs from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, cliAt, jsonl, runCli, tempHome, userBody } from "./cli-harness.js";

let cli: ReturnType<typeof cliAt>;
let id: string;

beforeAll(async () => {
	cli = cliAt(await tempHome());
	id = await cli.create("--name", "colors");
	await cli.ok(["append", id], { input: jsonl(userBody("hello")) });
});

/** Every command that takes a session id, with the arguments it needs besides it. */
const ID_COMMANDS: ReadonlyArray<readonly string[]> = [
	["append", "ID"],
	["show", "ID"],
	["tail", "ID"],
	["context", "ID"],
	["compact", "ID"],
	["fork", "ID"],
	["branch", "ID", "--at", "1"],
	["name", "ID", "new name"],
	["label", "ID", "1", "x"],
	["archive", "ID"],
	["unarchive", "ID"],
	["delete", "ID", "--yes"],
	["verify", "ID"],
	["stats", "ID"],
	["send", "ID", "hi"],
	["chat", "ID"],
	["export", "ID", "--format", "md"],
];

function expectOneCleanLine(stderr: string): void {
	const lines = stderr.trimEnd().split("\n");
	expect(lines).toHaveLength(1);
	expect(lines[0]).toMatch(/^error: /);
	expect(stderr).not.toMatch(/\n\s+at /);
}

describe("an invalid session id", () => {
	for (const args of ID_COMMANDS) {
		it(`exits 2 with one clean line: ${args[0]}`, async () => {
			const result = await cli(
				args.map((arg) => (arg === "ID" ? "../../etc/passwd" : arg)),
				{ input: "" },
			);
			expect(result.code).toBe(2);
			expectOneCleanLine(result.stderr);
			expect(result.stderr).toContain("is not a session id");
			expect(result.stdout).toBe("");
		});
	}
});

describe("a session that does not exist", () => {
	it("exits 1 with one line that says how to find the right id", async () => {
		const result = await cli(["show", "01JMRZ8X1Q9V5E2H3K4M6N7P8R"]);
		expect(result.code).toBe(1);
		expectOneCleanLine(result.stderr);
		expect(result.stderr).toContain("agent-sessions list");
	});
});

describe("usage errors", () => {
	it("exits 2 on an unknown option, naming it", async () => {
		const result = await cli(["list", "--bogus"]);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain("--bogus");
		expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
	});

	it("exits 2 on a missing argument or a malformed number", async () => {
		expect((await cli(["show"])).code).toBe(2);
		const badNumber = await cli(["tail", id, "-n", "many"]);
		expect(badNumber.code).toBe(2);
		expect(badNumber.stderr).toContain("whole number");
	});

	it("exits 2 on an unknown command and suggests the closest one", async () => {
		const result = await cli(["shwo", id]);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain("show");
	});

	it("exits 2 on an unknown model, without touching the store", async () => {
		const result = await cli(["create", "--model", "nope/nothing"]);
		expect(result.code).toBe(2);
		expectOneCleanLine(result.stderr);
		expect(await cli.json<unknown[]>(["list"])).toHaveLength(1);
	});

	it("prints help and exits 0 with --help", async () => {
		const result = await runCli(["--help"], { env: cleanEnv() });
		expect(result.code).toBe(0);
		for (const command of ["create", "append", "verify", "import", "export"]) expect(result.stdout).toContain(command);
	});
});

describe("--debug", () => {
	it("adds the stack trace to the error line", async () => {
		const result = await cli(["show", "01JMRZ8X1Q9V5E2H3K4M6N7P8R", "--debug"]);
		expect(result.code).toBe(1);
		expect(result.stderr.split("\n")[0]).toMatch(/^error: /);
		expect(result.stderr).toMatch(/\n\s+at /);
	});
});

describe("colors", () => {
	const ANSI = /\u001b\[/;

	it("are off when stdout is not a terminal", async () => {
		const result = await cli(["show", id], { env: cleanEnv() });
		expect(result.code).toBe(0);
		expect(result.stdout).not.toMatch(ANSI);
	});

	it("are on with FORCE_COLOR and never with NO_COLOR, even then", async () => {
		const forced = await cli(["show", id], { env: cleanEnv({ FORCE_COLOR: "1" }) });
		expect(forced.stdout).toMatch(ANSI);
		const noColor = await cli(["show", id], { env: cleanEnv({ FORCE_COLOR: "1", NO_COLOR: "1" }) });
		expect(noColor.code).toBe(0);
		expect(noColor.stdout).not.toMatch(ANSI);
		expect(noColor.stdout).toContain("hello");
		const failing = await cli(["show", "bad-id"], { env: cleanEnv({ FORCE_COLOR: "1", NO_COLOR: "1" }) });
		expect(failing.stderr).not.toMatch(ANSI);
	});
});

describe("the home", () => {
	it("comes from $AGENT_HOME when --home is not given", async () => {
		const result = await runCli(["list", "--json"], { env: cleanEnv({ AGENT_HOME: cli.home }) });
		expect(result.code).toBe(0);
		expect((JSON.parse(result.stdout) as Array<{ id: string }>).map((session) => session.id)).toContain(id);
	});

	it('--home "" is a usage error (exit 2) instead of a silent fall back to ~/.agent', async () => {
		const fakeUserHome = await tempHome();
		for (const home of ["", "  "]) {
			const result = await runCli(["--home", home, "list", "--json"], {
				env: cleanEnv({ AGENT_HOME: cli.home, HOME: fakeUserHome }),
			});
			expect(result.code, JSON.stringify(home)).toBe(2);
			expect(result.stderr).toContain("--home");
			expect(result.stderr).toContain("cannot be empty");
			expect(result.stdout).toBe("");
		}
		// No store was made there; what the bin may leave is its compile cache (~/.cache, on Node 20).
		const left = (await fs.readdir(fakeUserHome)).filter((name) => name !== ".cache");
		expect(left).toEqual([]);
	});
});
