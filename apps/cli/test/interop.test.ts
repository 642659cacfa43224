import fs from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, cliAt, logPath, tempHome } from "./cli-harness.js";

interface ImportResult {
	source: string;
	id: string;
	records: number;
	warnings: string[];
	status: string;
}

interface ContextJson {
	messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }>;
}

let cli: ReturnType<typeof cliAt>;
let id: string;

beforeAll(async () => {
	cli = cliAt(await tempHome());
	id = await cli.create("--model", "demo");
	await cli.ok(["send", id, "first question"]);
	await cli.ok(["send", id, "second question"]);
});

function texts(context: ContextJson): string[] {
	return context.messages.map(
		(message) => `${message.role}: ${message.content.map((block) => block.text ?? "").join("")}`,
	);
}

describe("export", () => {
	it("writes our JSONL byte for byte to stdout", async () => {
		const out = await cli.ok(["export", id, "--format", "jsonl"]);
		expect(out).toBe(await fs.readFile(logPath(cli.home, id), "utf8"));
	});

	it("writes a Markdown transcript and a self-contained HTML page to -o FILE", async () => {
		const dir = await tempHome();
		const markdown = path.join(dir, "session.md");
		const result = await cli(["export", id, "--format", "md", "-o", markdown]);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("");
		expect(await fs.readFile(markdown, "utf8")).toContain("second question");
		const html = path.join(dir, "session.html");
		await cli.ok(["export", id, "--format", "html", "-o", html]);
		const page = await fs.readFile(html, "utf8");
		expect(page).toMatch(/^<!doctype html>/i);
		expect(page).toContain("first question");
		expect(page).not.toMatch(/<script[^>]+src=|<link[^>]+href=/i);
	});

	it("refuses a format it does not know (exit 2)", async () => {
		const result = await cli(["export", id, "--format", "pdf"]);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain("md, html, jsonl, pi, claude, codex");
	});
});

describe("import", () => {
	it("round-trips a session through pi's format: same context, and importing again changes nothing", async () => {
		const dir = await tempHome();
		const file = path.join(dir, "exported.pi.jsonl");
		await cli.ok(["export", id, "--format", "pi", "-o", file]);

		const target = cliAt(await tempHome());
		const [first] = await target.json<ImportResult[]>(["import", file]);
		expect(first).toMatchObject({ source: file, status: "imported", warnings: [] });
		const original = await cli.json<ContextJson>(["context", id]);
		const imported = await target.json<ContextJson>(["context", first?.id as string]);
		expect(texts(imported)).toEqual(texts(original));

		const [again] = await target.json<ImportResult[]>(["import", dir, "--from", "pi"]);
		expect(again).toMatchObject({ id: first?.id, status: "unchanged" });
		expect(await target.json<unknown[]>(["list"])).toHaveLength(1);
	});

	for (const format of ["claude", "codex"] as const) {
		it(`round-trips a session through ${format}'s format: same context; the note says where to put the file to resume it`, async () => {
			const dir = await tempHome();
			const file = path.join(dir, `exported.${format}.jsonl`);
			const result = await cli(["export", id, "--format", format, "-o", file], {
				env: cleanEnv({ CLAUDE_CONFIG_DIR: "/agents/claude", CODEX_HOME: "/agents/codex" }),
			});
			expect(result.code).toBe(0);
			const resume =
				format === "claude"
					? /put the file at \/agents\/claude\/projects\/.+\.jsonl and run `claude --resume [0-9a-f-]{36}`/
					: /put the file at \/agents\/codex\/sessions\/\d{4}\/\d\d\/\d\d\/rollout-.+\.jsonl and run `codex resume [0-9a-f-]{36}`/;
			expect(result.stderr).toMatch(resume);
			const target = cliAt(await tempHome());
			const [first] = await target.json<ImportResult[]>(["import", file, "--from", format]);
			expect(first).toMatchObject({ status: "imported" });
			const original = await cli.json<ContextJson>(["context", id]);
			const imported = await target.json<ContextJson>(["context", first?.id as string]);
			expect(texts(imported)).toEqual(texts(original));
		});
	}

	it("reports a file that is not a session as skipped and exits 0; prints one line per file", async () => {
		const dir = await tempHome();
		await fs.writeFile(path.join(dir, "notes.jsonl"), '{"hello":"world"}\n');
		const target = cliAt(await tempHome());
		const result = await target(["import", dir]);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain("skipped");
		expect(result.stderr).toContain("1 skipped");
	});
});

describe("import of real files named on the command line", () => {
	const fixtures = path.resolve(__dirname, "../../../packages/interop/fixtures");

	it("a named file that is not a session fails with exit 1 and says why once", async () => {
		const dir = await tempHome();
		const garbage = path.join(dir, "notes.jsonl");
		await fs.writeFile(garbage, "this is not a session\n");
		const result = await cli(["import", garbage]);
		expect(result.code).toBe(1);
		const why = `${result.stdout}${result.stderr}`.split("\n").filter((line) => line.includes("is not a session"));
		expect(why).toHaveLength(1);
	});

	it("a Claude Code sub-agent and its parent session: show of either names the other", async () => {
		const home = cliAt(await tempHome());
		const results = JSON.parse(await home.ok(["import", path.join(fixtures, "claude/subagents"), "--json"])) as Array<
			ImportResult & { sourceId: string }
		>;
		const [parent, child] = [
			results.find((r) => !r.sourceId.includes("/agent-")),
			results.find((r) => r.sourceId.includes("/agent-")),
		];
		expect(await home.ok(["show", parent?.id as string])).toContain(child?.id as string);
		expect(await home.ok(["show", child?.id as string])).toContain(parent?.id as string);
	});
});
