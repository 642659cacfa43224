import { execFileSync, spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { assistantBody, BIN, cleanEnv, cliAt, jsonl, tempHome, userBody } from "./cli-harness.js";

interface DryRunJson {
	plan: { tokensBefore: number } | null;
	chunks: { chunks: number; fitsInOneCall: boolean; summarizerWindow: number } | null;
	reduction: { reduces: boolean; tokensAfter: number } | null;
}

/** A demo-model session with `pairs` exchanges of ~`tokens` tokens each, appended (no turns, no compaction). */
async function sessionWith(pairs: number, tokens: number) {
	const cli = cliAt(await tempHome());
	const id = await cli.create("--model", "demo");
	const bodies: object[] = [];
	for (let i = 0; i < pairs; i++) {
		bodies.push(userBody(`question ${i} ${"lorem ipsum ".repeat(tokens / 3)}`));
		bodies.push(assistantBody(`answer ${i} ${"dolor sit amet ".repeat(tokens / 4)}`));
	}
	await cli.ok(["append", id], { input: jsonl(...bodies) });
	return { cli, id };
}

describe("compact --dry-run: summarizer calls", () => {
	it("says the material fits one call when it does", async () => {
		const { cli, id } = await sessionWith(3, 200);
		const text = await cli.ok(["compact", id, "--dry-run", "--keep-recent-tokens", "10"]);
		// A split turn has two parts (history and turn prefix): one call each.
		expect(text).toMatch(
			/summarizer calls: +2 \(the material fits one call per part of the summarizer's 32,000-token window\)/,
		);
		const json = await cli.json<DryRunJson>(["compact", id, "--dry-run", "--keep-recent-tokens", "10"]);
		expect(json.chunks).toMatchObject({ chunks: 2, fitsInOneCall: true, summarizerWindow: 32_000 });
		// ~1,000 tokens of context: what is kept plus a summary as long as it may be is no less.
		expect(json.reduction?.reduces).toBe(false);
		expect(text).toMatch(/reduces: +no: compacting cannot reduce the context.*\(a threshold compaction skips it\)/);
	});

	it("says when the material cannot fit one call and how many chunks it takes", async () => {
		const { cli, id } = await sessionWith(12, 3000);
		const text = await cli.ok(["compact", id, "--dry-run", "--keep-recent-tokens", "10"]);
		const said = text.match(
			/summarizer calls: +~(\d+) \(estimate\): the material \(~[\d,]+ tokens\) does not fit one call/,
		);
		expect(said, text).not.toBeNull();
		const json = await cli.json<DryRunJson>(["compact", id, "--dry-run", "--keep-recent-tokens", "10"]);
		expect(json.chunks?.fitsInOneCall).toBe(false);
		expect(json.chunks?.chunks).toBe(Number(said?.[1]));
		expect(json.chunks?.chunks).toBeGreaterThan(1);
		expect(json.reduction?.reduces).toBe(true);
		expect(text).not.toContain("reduces:");
	});
});

function hasScript(): boolean {
	try {
		execFileSync("script", ["--version"], { stdio: "ignore" });
		return true;
	} catch {
		return false;
	}
}

/** Runs the CLI on a pseudo-terminal (util-linux `script`): stderr is a TTY there. */
function onTerminal(args: readonly string[]): Promise<{ code: number | null; output: string }> {
	const command = [process.execPath, BIN, ...args].map((part) => `'${part.replace(/'/g, "'\\''")}'`).join(" ");
	const child = spawn("script", ["-qec", command, "/dev/null"], { env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
	let output = "";
	child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
		output += chunk;
	});
	return new Promise((resolve, reject) => {
		child.on("error", reject);
		child.on("close", (code) => resolve({ code, output }));
	});
}

describe("compact progress", () => {
	it.runIf(hasScript())("draws chunk i of n on a terminal", async () => {
		const { cli, id } = await sessionWith(12, 3000);
		const result = await onTerminal(["--home", cli.home, "compact", id, "--keep-recent-tokens", "10"]);
		expect(result.code, result.output).toBe(0);
		expect(result.output).toContain("compact [");
		expect(result.output).toMatch(/chunk 2 of ~\d+/);
	});

	it("draws nothing when stderr is not a terminal", async () => {
		const { cli, id } = await sessionWith(12, 3000);
		const result = await cli(["compact", id, "--keep-recent-tokens", "10"]);
		expect(result.code).toBe(0);
		expect(result.stderr).not.toContain("compact [");
		expect(result.stdout).toContain("compaction");
	});
});
