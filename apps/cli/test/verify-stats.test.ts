import fs from "node:fs/promises";
import type { RecordInput, SessionStats } from "@agent/session-format";
import { createFileStore } from "@agent/session-fs";
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

describe("stats per user", () => {
	it("shows tokens and cost per user that created the sessions, and --user keeps to one user's sessions", async () => {
		const home = cliAt(await tempHome());
		// Sessions a server's users created (createdBy), each with a reply that cost something.
		const store = createFileStore({ home: home.home });
		const reply = (cost: number): RecordInput => ({
			recordType: "message",
			role: "assistant",
			content: [{ type: "text", text: "answer" }],
			provider: "anthropic",
			model: "claude-sonnet-4-5",
			usage: {
				input: 100,
				output: 50,
				cacheRead: 0,
				cacheWrite: 0,
				totalTokens: 150,
				cost: { input: cost / 2, output: cost / 2, cacheRead: 0, cacheWrite: 0, total: cost },
			},
			stopReason: "stop",
		});
		for (const [user, cost] of [
			["alice", 0.5],
			["alice", 0.25],
			["bob", 2],
		] as const) {
			const { id } = await store.create({ createdBy: user });
			await store.append(id, [
				{ recordType: "message", role: "user", content: [{ type: "text", text: "q" }] },
				reply(cost),
			]);
		}
		await home.create("--name", "from the terminal");

		const stats = await home.json<SessionStats>(["stats"]);
		expect(stats.sessions).toBe(4);
		expect(stats.byUser).toEqual({
			alice: expect.objectContaining({ sessions: 2, turns: 2, totalTokens: 300, cost: 0.75 }),
			bob: expect.objectContaining({ sessions: 1, turns: 1, cost: 2 }),
		});
		const text = await home.ok(["stats"]);
		expect(text).toMatch(/USER\s+SESSIONS\s+TURNS\s+TOTAL TOKENS\s+COST/);
		expect(text).toMatch(/alice\s+2\s+2\s+300\s+\$0\.75/);
		expect(text).toMatch(/bob\s+1\s+1\s+150\s+\$2\.00/);

		const alice = await home.json<SessionStats>(["stats", "--user", "alice"]);
		expect(alice).toMatchObject({ sessions: 2, totals: expect.objectContaining({ cost: 0.75 }) });
		expect(Object.keys(alice.byUser)).toEqual(["alice"]);
		expect((await home.json<SessionStats>(["stats", "--user", "carol"])).sessions).toBe(0);
	});
});
