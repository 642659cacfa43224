import { beforeAll, describe, expect, it } from "vitest";
import { cliAt, startCli, tempHome } from "./cli-harness.js";

let cli: ReturnType<typeof cliAt>;

beforeAll(async () => {
	cli = cliAt(await tempHome());
});

interface RecordJson {
	seq: number;
	recordType: string;
	role?: string;
	content?: Array<{ type: string; text?: string }>;
}

describe("send", () => {
	it("streams the reply of the offline demo model to stdout and stores both messages", async () => {
		const id = await cli.create("--model", "demo");
		const out = await cli.ok(["send", id, "What is 2+2?"]);
		expect(out).toContain("What is 2+2?");
		expect(out).toContain("demo model");
		const messages = (await cli.json<RecordJson[]>(["show", id])).filter((record) => record.recordType === "message");
		expect(messages.map((record) => record.role)).toEqual(["user", "assistant"]);
	});

	it("prints { turnId, sessionId, records } with --json", async () => {
		const id = await cli.create();
		const result = await cli.json<{ turnId: string; sessionId: string; records: RecordJson[] }>([
			"send",
			id,
			"hello",
			"--model",
			"demo",
		]);
		expect(result.sessionId).toBe(id);
		expect(typeof result.turnId).toBe("string");
		expect(result.records.filter((record) => record.recordType === "message").map((record) => record.role)).toEqual([
			"user",
			"assistant",
		]);
	});

	it("streams a reply whose deltas split an emoji in two (any cut point) with the emoji whole; the name keeps it whole or drops it", async () => {
		for (const n of [57, 58, 59, 60]) {
			const id = await cli.create("--model", "demo");
			const text = `${"a".repeat(n)}😀bbb`;
			const out = await cli.ok(["send", id, text]);
			expect(out, String(n)).toContain(text);
			expect(out, String(n)).not.toContain("\uFFFD");
			const listed = await cli.json<Array<{ id: string; name?: string }>>(["list", "--json"]);
			const name = listed.find((session) => session.id === id)?.name ?? "";
			expect(name.length, String(n)).toBeGreaterThan(0);
			expect(/[\uD800-\uDFFF]/u.test(name), name).toBe(false);
		}
	});

	it("reads the message from stdin with -", async () => {
		const id = await cli.create("--model", "demo");
		expect(await cli.ok(["send", id, "-"], { input: "from a pipe\n" })).toContain("from a pipe");
	});
});

describe("chat", () => {
	it("sends each line typed on stdin and streams every reply, then exits on /exit", async () => {
		const id = await cli.create("--model", "demo");
		const chat = startCli(["--home", cli.home, "chat", id]);
		chat.child.stdin.write("first question\n");
		await chat.waitFor(/You said: "first question"[\s\S]*\n/);
		chat.child.stdin.write("second question\n");
		await chat.waitFor('You said: "second question"');
		chat.child.stdin.write("/exit\n");
		const result = await chat.done;
		expect(result.code).toBe(0);
		const users = (await cli.json<RecordJson[]>(["show", id]))
			.filter((record) => record.recordType === "message" && record.role === "user")
			.map((record) => record.content?.[0]?.text);
		expect(users).toEqual(["first question", "second question"]);
	});

	it("ends at the end of its input", async () => {
		const id = await cli.create("--model", "demo");
		const result = await cli(["chat", id], { input: "only line\n" });
		expect(result.code).toBe(0);
		expect(result.stdout).toContain("only line");
	});
});

describe("compact", () => {
	it("--dry-run prints the plan, --prompts adds the full prompts, and nothing is written", async () => {
		const id = await cli.create("--model", "demo");
		for (const text of ["first topic", "second topic", "third topic"]) await cli.ok(["send", id, text]);
		const before = await cli.json<unknown[]>(["show", id]);

		const plain = await cli.ok(["compact", id, "--dry-run", "--keep-recent-tokens", "10"]);
		expect(plain).toContain("firstKeptSeq");
		expect(plain).toContain("add --prompts");
		expect(plain).not.toContain("You are a context summarization assistant.");
		expect(plain).not.toContain("[User]: first topic");
		const out = await cli.ok(["compact", id, "--dry-run", "--prompts", "--keep-recent-tokens", "10"]);
		expect(out).toContain("firstKeptSeq");
		expect(out).toContain("tokensBefore");
		expect(out).toContain("isSplitTurn");
		expect(out).toContain("You are a context summarization assistant.");
		expect(out).toContain("## Goal");
		expect(out).toContain("[User]: first topic");
		const plan = await cli.json<{
			model: string;
			plan: {
				firstKeptSeq: number;
				tokensBefore: number;
				isSplitTurn: boolean;
				readFiles: string[];
				modifiedFiles: string[];
				parts: Array<{ messageCount: number }>;
			};
			prompts: string[];
		}>(["compact", id, "--dry-run", "--prompts", "--keep-recent-tokens", "10", "--instructions", "focus on topics"]);
		expect(plan.model).toMatch(/^demo/);
		expect(plan.plan.firstKeptSeq).toBeGreaterThan(1);
		expect(plan.plan.parts[0]?.messageCount).toBeGreaterThan(0);
		expect(plan.prompts[0]).toContain("focus on topics");
		expect(plan.prompts[0]).toContain("[User]: first topic");
		const bare = await cli.json<{ prompts?: string[] }>(["compact", id, "--dry-run", "--keep-recent-tokens", "10"]);
		expect(bare.prompts).toBeUndefined();
		const misuse = await cli(["compact", id, "--prompts"]);
		expect(misuse.code).toBe(2);
		expect(misuse.stderr).toContain("--prompts only goes with --dry-run");
		expect(await cli.json<unknown[]>(["show", id])).toEqual(before);
	});

	it("with --model demo appends a compaction record offline, and the context starts with its summary", async () => {
		const id = await cli.create("--model", "demo");
		for (const text of ["first topic", "second topic", "third topic"]) await cli.ok(["send", id, text]);
		const record = await cli.json<{ recordType: string; seq: number; firstKeptSeq: number; summary: string }>([
			"compact",
			id,
			"--model",
			"demo",
			"--keep-recent-tokens",
			"10",
		]);
		expect(record.recordType).toBe("compaction");
		expect(record.summary).toContain("## Goal");
		const context = await cli.json<{ compaction: { seq: number } | null; messages: Array<{ origin: string }> }>([
			"context",
			id,
		]);
		expect(context.compaction?.seq).toBe(record.seq);
		expect(context.messages[0]?.origin).toBe("compaction_summary");
		const tree = await cli.ok(["show", id, "--tree"]);
		expect(tree).toContain(`#${record.seq} ⟲ compaction kept from #${record.firstKeptSeq}`);
	});

	it("says there is nothing to compact when everything fits (exit 0, null with --json)", async () => {
		const id = await cli.create("--model", "demo");
		await cli.ok(["send", id, "short"]);
		expect(await cli.json(["compact", id, "--model", "demo"])).toBeNull();
		const text = await cli(["compact", id, "--model", "demo"]);
		expect(text.code).toBe(0);
		expect(text.stderr).toContain("Nothing to compact");
	});
});
