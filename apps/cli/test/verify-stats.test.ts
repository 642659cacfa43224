import fs from "node:fs/promises";
import type { SessionStats } from "@agent/session-format";
import { beforeAll, describe, expect, it } from "vitest";
import { assistantBody, cliAt, jsonl, logPath, tempHome, userBody } from "./cli-harness.js";

interface Report {
	sessionId: string;
	ok: boolean;
	problems: Array<{ kind: string; message: string; line?: number; byteOffset?: number; acknowledged?: boolean }>;
	records: number;
	bytes: number;
	repaired?: boolean;
}

let cli: ReturnType<typeof cliAt>;
let healthy: string;

beforeAll(async () => {
	cli = cliAt(await tempHome());
	healthy = await cli.create("--name", "healthy");
	await cli.ok(["append", healthy], { input: jsonl(userBody("fine"), assistantBody("all fine")) });
});

describe("verify", () => {
	it("exits 0 on a healthy store and reports each session with --json", async () => {
		const reports = await cli.json<Report[]>(["verify"]);
		expect(reports).toEqual([expect.objectContaining({ sessionId: healthy, ok: true, problems: [], records: 2 })]);
		expect(reports[0]?.bytes).toBeGreaterThan(0);
		const text = await cli(["verify", healthy]);
		expect(text.code).toBe(0);
		expect(text.stdout).toContain(healthy);
	});

	it("exits 1 on a corrupt line in the middle and names its line and byte offset; --repair acknowledges it (appending only) and verify passes", async () => {
		const home = cliAt(await tempHome());
		const id = await home.create();
		await home.ok(["append", id], { input: jsonl(userBody("one"), assistantBody("two"), userBody("three")) });
		const file = logPath(home.home, id);
		const lines = (await fs.readFile(file, "utf8")).split("\n");
		const firstLineBytes = Buffer.byteLength(lines[0] as string) + 1;
		lines[1] = "{this line was damaged";
		const damaged = lines.join("\n");
		await fs.writeFile(file, damaged);

		const result = await home(["verify", "--json"]);
		expect(result.code).toBe(1);
		const reports = JSON.parse(result.stdout) as Report[];
		const problem = reports[0]?.problems.find((entry) => entry.kind === "corrupt_line");
		expect(problem).toMatchObject({ line: 2, byteOffset: firstLineBytes });

		const text = await home(["verify", id]);
		expect(text.code).toBe(1);
		expect(text.stdout).toContain(`line 2, byte ${firstLineBytes}`);

		const repaired = await home(["verify", id, "--repair"]);
		expect(repaired.code).toBe(0);
		// The log is never rewritten: the damaged line stays, and a damage_ack record acknowledges it.
		const after = await fs.readFile(file, "utf8");
		expect(after.startsWith(damaged)).toBe(true);
		expect(after.slice(damaged.length)).toMatch(/^\{"recordType":"damage_ack",[^\n]*"line":2,/);
		const again = await home(["verify", id, "--json"]);
		expect(again.code).toBe(0);
		const [report] = JSON.parse(again.stdout) as Report[];
		expect(report?.problems.find((entry) => entry.kind === "corrupt_line")).toMatchObject({
			line: 2,
			acknowledged: true,
		});
	});
});

describe("verify --repair", () => {
	it("rebuilds metadata that drifted from the log (a crash between append and metadata write) and then exits 0", async () => {
		const home = cliAt(await tempHome());
		const id = await home.create();
		await home.ok(["append", id], { input: jsonl(userBody("one")) });
		// The record reached the log; the metadata write did not.
		const line = {
			recordType: "message",
			schemaVersion: 1,
			seq: 2,
			role: "assistant",
			content: [{ type: "text", text: "two" }],
			timestamp: "2025-02-11T10:00:01Z",
		};
		await fs.appendFile(logPath(home.home, id), `${JSON.stringify(line)}\n`);

		const found = await home(["verify", "--json"]);
		expect(found.code).toBe(1);
		expect((JSON.parse(found.stdout) as Report[])[0]?.problems.map((problem) => problem.kind)).toContain(
			"metadata_drift",
		);

		const repaired = await home(["verify", "--repair", "--json"]);
		expect(repaired.code).toBe(0);
		const [report] = JSON.parse(repaired.stdout) as Array<Report & { fixed: Report["problems"] }>;
		expect(report).toMatchObject({ ok: true, repaired: true, problems: [] });
		expect(report?.fixed.map((problem) => problem.kind)).toContain("metadata_drift");
		expect((await home(["verify"])).code).toBe(0);
	});
});

describe("stats", () => {
	it("adds up sessions, records, bytes, tokens and cost by model", async () => {
		const stats = await cli.json<SessionStats>(["stats"]);
		expect(stats.sessions).toBeGreaterThanOrEqual(1);
		expect(stats.records).toBeGreaterThanOrEqual(2);
		expect(stats.bytes).toBeGreaterThan(0);
		expect(stats.totals).toMatchObject({ totalTokens: expect.any(Number), cost: expect.any(Number) });
		expect(typeof stats.byModel).toBe("object");

		const one = await cli.json<{ sessions: number; records: number }>(["stats", healthy]);
		expect(one).toMatchObject({ sessions: 1, records: 2 });
		const text = await cli.ok(["stats"]);
		expect(text).toContain("sessions:");
		expect(text).toContain("bytes:");
	});
});
