import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { assistantBody, cleanEnv, cliAt, jsonl, startCli, tempHome, userBody } from "./cli-harness.js";

interface RecordJson {
	seq: number;
	recordType: string;
	role?: string;
	thinkingLevel?: string;
	summary?: string;
}

interface MetadataJson {
	id: string;
	identityKey?: string;
	uptimeSeconds?: number;
	messageCount: number;
}

function sessionsOnDisk(home: string): string[] {
	try {
		return fs.readdirSync(path.join(home, "sessions")).filter((name) => !name.startsWith("."));
	} catch {
		return [];
	}
}

/** An environment where a real provider has no key: a session or a send on it is refused. */
const NO_KEYS = cleanEnv();

describe("deferred sessions", () => {
	it("create --deferred needs --send, and says why", async () => {
		const cli = cliAt(await tempHome());
		const result = await cli(["create", "--deferred"]);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/give the first message with --send TEXT/);
		expect(sessionsOnDisk(cli.home)).toEqual([]);
	});

	it("create --deferred --send writes the session with its first reply", async () => {
		const cli = cliAt(await tempHome());
		const out = await cli.ok(["create", "--deferred", "--model", "demo", "--send", "hello deferred"]);
		const id = out.split("\n")[0] ?? "";
		expect(out).toContain('You said: "hello deferred"');
		expect(sessionsOnDisk(cli.home)).toEqual([id]);
		const roles = (await cli.json<RecordJson[]>(["show", id])).flatMap((r) => (r.role ? [r.role] : []));
		expect(roles).toEqual(["user", "assistant"]);
	});

	it("a failed first turn leaves no directory and no log", async () => {
		const cli = cliAt(await tempHome());
		// The turn fails at its deadline: one second, while the demo model answers a token a second.
		await fs.promises.writeFile(path.join(cli.home, "config.yaml"), "turn_timeout_seconds: 1\n");
		const slow = { env: cleanEnv({ AGENT_DEMO_TOKENS_PER_SECOND: "1" }) };
		const result = await cli(["create", "--deferred", "--model", "demo", "--send", "hi"], slow);
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/TIMED_OUT|ran out of time/);
		expect(sessionsOnDisk(cli.home)).toEqual([]);
		// Without --deferred the same failure keeps the session, with what the reply had written.
		const kept = await cli(["create", "--model", "demo", "--send", "hi"], slow);
		expect(kept.code).toBe(1);
		expect(sessionsOnDisk(cli.home)).toHaveLength(1);
		const id = kept.stdout.split("\n")[0] ?? "";
		const roles = (await cli.json<RecordJson[]>(["show", id])).flatMap((r) => (r.role ? [r.role] : []));
		expect(roles).toEqual(["user", "assistant"]);
	});

	it("a model without its API key is refused before anything is written, deferred or not", async () => {
		const cli = cliAt(await tempHome());
		for (const deferred of [["--deferred"], []]) {
			const result = await cli(["create", ...deferred, "--model", "anthropic/claude-sonnet-4-5", "--send", "hi"], {
				env: NO_KEYS,
			});
			expect(result.code).toBe(1);
			expect(result.stderr).toMatch(/ANTHROPIC_API_KEY.*Nothing was written/);
			expect(sessionsOnDisk(cli.home)).toEqual([]);
		}
	});

	it("chat without an id starts a deferred session: leaving before sending leaves nothing", async () => {
		const cli = cliAt(await tempHome());
		const empty = startCli(["--home", cli.home, "chat", "--model", "demo"]);
		empty.child.stdin.end("/exit\n");
		expect((await empty.done).code).toBe(0);
		expect(sessionsOnDisk(cli.home)).toEqual([]);
		const chat = startCli(["--home", cli.home, "chat", "--model", "demo"]);
		chat.child.stdin.write("a new chat\n");
		await chat.waitFor('You said: "a new chat"');
		chat.child.stdin.end("/exit\n");
		expect((await chat.done).code).toBe(0);
		expect(sessionsOnDisk(cli.home)).toHaveLength(1);
	});
});

describe("identity-keyed sessions", () => {
	it("send --identity continues the identity's latest session, creating it the first time", async () => {
		const cli = cliAt(await tempHome());
		const first = await cli(["send", "--identity", "telegram:42", "--model", "demo", "hello"]);
		expect(first.code).toBe(0);
		expect(first.stderr).toMatch(/Created session [0-9A-Z]{26} for identity "telegram:42"/);
		const second = await cli(["send", "--identity", "telegram:42", "again"]);
		expect(second.stderr).not.toMatch(/Created session/);
		expect(second.stdout).toContain("turn 2 of this conversation");
		const other = await cli.create("--identity", "telegram:43", "--model", "demo");
		const mine = await cli.json<MetadataJson[]>(["list", "--identity", "telegram:42"]);
		expect(mine).toHaveLength(1);
		expect(mine[0]).toMatchObject({ identityKey: "telegram:42", messageCount: 4 });
		const theirs = await cli.json<MetadataJson[]>(["list", "--identity", "telegram:43"]);
		expect(theirs.map((s) => s.id)).toEqual([other]);
		expect(await cli.json<MetadataJson[]>(["list"])).toHaveLength(2);
	});

	it("refuses a session id together with --identity", async () => {
		const cli = cliAt(await tempHome());
		const id = await cli.create("--model", "demo");
		const result = await cli(["send", id, "hi", "--identity", "k"]);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/either a session id or --identity/);
	});
});

describe("uptime and the thinking level", () => {
	it("two turns set uptimeSeconds, which survives a deleted metadata.json", async () => {
		const cli = cliAt(await tempHome());
		const id = await cli.create("--model", "demo");
		await cli.ok(["send", id, "one"]);
		await cli.ok(["send", id, "two", "--thinking", "high"]);
		const before = (await cli.json<MetadataJson[]>(["list"]))[0]?.uptimeSeconds;
		expect(before).toBeGreaterThan(0);
		fs.rmSync(path.join(cli.home, "sessions", id, "metadata.json"));
		fs.rmSync(path.join(cli.home, "cache"), { recursive: true, force: true });
		const after = (await cli.json<MetadataJson[]>(["list"]))[0]?.uptimeSeconds;
		expect(after).toBeCloseTo(before ?? -1, 6);
		const records = await cli.json<RecordJson[]>(["show", id]);
		expect(records.filter((r) => r.recordType === "turn")).toHaveLength(2);
		expect(records.flatMap((r) => (r.recordType === "thinking_level_change" ? [r.thinkingLevel] : []))).toEqual([
			"high",
		]);
	});

	it("turns lists each turn's outcome and duration, failed ones with their error", async () => {
		const cli = cliAt(await tempHome());
		const id = await cli.create("--model", "demo");
		await cli.ok(["send", id, "one"]);
		// The second turn fails at its deadline: one second, while the demo model answers a token a second.
		await fs.promises.writeFile(path.join(cli.home, "config.yaml"), "turn_timeout_seconds: 1\n");
		const failed = await cli(["send", id, "two"], { env: cleanEnv({ AGENT_DEMO_TOKENS_PER_SECOND: "1" }) });
		expect(failed.code).toBe(1);
		const turns = await cli.json<
			Array<{ outcome: string; durationMs: number; model: string; error?: { code: string } }>
		>(["turns", id]);
		expect(turns.map((t) => [t.outcome, t.model])).toEqual([
			["completed", "demo/demo"],
			["timed_out", "demo/demo"],
		]);
		expect(turns[1]?.error?.code).toBe("TIMED_OUT");
		const table = await cli.ok(["turns", id]);
		expect(table).toMatch(/completed\s+[\d.]+ s\s+demo\/demo/);
		expect(table).toContain("TIMED_OUT");
	});

	it("refuses an unknown thinking level", async () => {
		const cli = cliAt(await tempHome());
		const id = await cli.create("--model", "demo");
		const result = await cli(["send", id, "hi", "--thinking", "extreme"]);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/extreme/);
	});
});

describe("branch --summarize", () => {
	it("writes a branch_summary of the branch left, which the context then carries", async () => {
		const cli = cliAt(await tempHome());
		const id = await cli.create("--model", "demo");
		await cli.ok(["send", id, "first idea"]);
		await cli.ok(["send", id, "second idea"]);
		const out = await cli.ok(["branch", id, "--at", "2", "--summarize"]);
		expect(out).toMatch(/summary of the branch left/);
		const summary = (await cli.json<RecordJson[]>(["show", id])).find((r) => r.recordType === "branch_summary");
		expect(summary?.summary).toContain("second idea");
		const context = await cli.json<{ messages: Array<{ origin: string }> }>(["context", id]);
		expect(context.messages.map((m) => m.origin)).toEqual(["message", "message", "branch_summary"]);
	});
});

describe("tool outputs", () => {
	function toolTurn(i: number, result?: { isError: boolean }) {
		const call = { type: "toolCall", id: `call-${i}`, name: "read", arguments: { path: `f${i}` } };
		const bodies: object[] = [
			userBody(`read f${i}`),
			{ recordType: "message", role: "assistant", content: [call], stopReason: "toolUse" },
		];
		if (result) {
			bodies.push({
				recordType: "message",
				role: "toolResult",
				toolCallId: `call-${i}`,
				toolName: "read",
				isError: result.isError,
				content: [{ type: "text", text: `f${i}: ${"data ".repeat(500)}` }],
			});
		}
		bodies.push(assistantBody(`done ${i}`));
		return bodies;
	}

	it("context --json shows which old tool outputs compaction.prune_tool_outputs prunes", async () => {
		const cli = cliAt(await tempHome());
		const id = await cli.create();
		const turns = [0, 1, 2, 3].flatMap((i) => toolTurn(i, { isError: false }));
		await cli.ok(["append", id], { input: jsonl(...turns) });
		const unpruned = await cli.json<{ pruned: unknown }>(["context", id]);
		expect(unpruned.pruned).toBeNull();
		fs.writeFileSync(
			path.join(cli.home, "config.yaml"),
			"compaction:\n  prune_tool_outputs: 100\n  prune_minimum_tokens: 0\n",
		);
		const pruned = await cli.json<{ pruned: { seqs: number[]; tokens: number }; messages: unknown[] }>(["context", id]);
		// The first result is #3; the last two turns' results are always protected.
		expect(pruned.pruned.seqs).toContain(3);
		expect(pruned.pruned.tokens).toBeGreaterThan(0);
		expect(JSON.stringify(pruned.messages)).toContain("pruned from the context");
		const text = await cli.ok(["context", id]);
		expect(text).toMatch(/old output of \d+ tool result\(s\) pruned/);
	});

	it("tools lists each execution with its duration and outcome, derived from the log", async () => {
		const cli = cliAt(await tempHome());
		const id = await cli.create();
		const turns = [...toolTurn(0, { isError: false }), ...toolTurn(1, { isError: true }), ...toolTurn(2)];
		await cli.ok(["append", id], { input: jsonl(...turns) });
		const log = await cli.json<Array<{ toolCallId: string; outcome: string; durationMs?: number }>>(["tools", id]);
		expect(log.map((e) => [e.toolCallId, e.outcome])).toEqual([
			["call-0", "ok"],
			["call-1", "error"],
			["call-2", "no result"],
		]);
		expect(log[0]?.durationMs).toBeGreaterThanOrEqual(0);
		expect(log[2]?.durationMs).toBeUndefined();
		const table = await cli.ok(["tools", id]);
		expect(table).toMatch(/read\s+\d+ ms\s+ok/);
		expect(table).toContain("no result");
	});
});

describe("compact --dry-run", () => {
	it("says when keep_recent_tokens is capped by a small window", async () => {
		const cli = cliAt(await tempHome());
		fs.writeFileSync(path.join(cli.home, "config.yaml"), "compaction:\n  keep_recent_tokens: 20000\n");
		const id = await cli.create("--model", "demo");
		await cli.ok(["send", id, "hello"]);
		const result = await cli(["compact", id, "--dry-run"]);
		expect(result.code).toBe(0);
		expect(result.stderr).toMatch(/keep_recent_tokens 20000 is more than a \d+-token window allows/);
		const json = await cli.json<{ keepRecentTokens: { configured: number; effective: number; capped?: string } }>([
			"compact",
			id,
			"--dry-run",
		]);
		expect(json.keepRecentTokens.configured).toBe(20000);
		expect(json.keepRecentTokens.effective).toBeLessThan(20000);
	});
});
