import type { SessionMetadata } from "@agent/session-format";
import { beforeAll, describe, expect, it } from "vitest";
import { assistantBody, cliAt, jsonl, tempHome, ULID, userBody } from "./cli-harness.js";

let cli: ReturnType<typeof cliAt>;

beforeAll(async () => {
	cli = cliAt(await tempHome());
});

type Metadata = SessionMetadata;

interface RecordJson {
	recordType: string;
	seq: number;
	schemaVersion: number;
	timestamp: string;
	role?: string;
	content?: Array<{ type: string; text?: string }>;
}

describe("create", () => {
	it("prints the new id", async () => {
		const out = await cli.ok(["create"]);
		expect(out.trim()).toMatch(ULID);
		expect(out.trim().split("\n")).toHaveLength(1);
	});

	it("prints the metadata with --json, with every option applied", async () => {
		const metadata = await cli.json<Metadata>([
			"create",
			"--name",
			"nightly report",
			"--model",
			"demo",
			"--cron-job",
			"nightly",
			"--system-prompt",
			"Be brief.",
		]);
		expect(metadata.id).toMatch(ULID);
		expect(metadata).toMatchObject({
			name: "nightly report",
			model: "demo/demo",
			source: "cron",
			cronJobId: "nightly",
			systemPromptOverride: "Be brief.",
			messageCount: 0,
			lastSeq: 0,
		});
		expect(Number.isNaN(Date.parse(metadata.createdAt))).toBe(false);
	});

	it("refuses --cron-job with --source interactive (exit 2)", async () => {
		const result = await cli(["create", "--source", "interactive", "--cron-job", "x"]);
		expect(result.code).toBe(2);
	});
});

describe("append", () => {
	it("reads JSONL bodies from stdin and prints each assigned seq on its own line", async () => {
		const id = await cli.create();
		const out = await cli.ok(["append", id], {
			input: jsonl(userBody("one"), assistantBody("two"), userBody("three")),
		});
		expect(out).toBe("1\n2\n3\n");
		const again = await cli.ok(["append", id], { input: `\n${JSON.stringify(assistantBody("four"))}` });
		expect(again).toBe("4\n");
		const records = await cli.json<RecordJson[]>(["show", id]);
		expect(records.map((record) => [record.seq, record.role, record.content?.[0]?.text])).toEqual([
			[1, "user", "one"],
			[2, "assistant", "two"],
			[3, "user", "three"],
			[4, "assistant", "four"],
		]);
		expect(records.every((record) => record.schemaVersion === 1 && !Number.isNaN(Date.parse(record.timestamp)))).toBe(
			true,
		);
	});

	it("prints the records as JSON lines with --json", async () => {
		const id = await cli.create();
		const out = await cli.ok(["append", id, "--json"], { input: jsonl(userBody("a"), assistantBody("b")) });
		const lines = out
			.trimEnd()
			.split("\n")
			.map((line) => JSON.parse(line) as RecordJson);
		expect(lines.map((record) => [record.seq, record.recordType])).toEqual([
			[1, "message"],
			[2, "message"],
		]);
	});

	it("stops at an invalid line, keeps what came before it, and says which line and what to do", async () => {
		const id = await cli.create();
		const input =
			jsonl(userBody("kept"), assistantBody("kept too")) +
			'{"recordType":"message","role":"user","content":"bare"}\n' +
			jsonl(userBody("never"));
		const result = await cli(["append", id], { input });
		expect(result.code).toBe(1);
		expect(result.stdout).toBe("1\n2\n");
		const lines = result.stderr.trimEnd().split("\n");
		expect(lines).toHaveLength(1);
		expect(lines[0]).toContain("stdin line 3");
		expect(lines[0]).toContain("up to seq 2");
		const records = await cli.json<RecordJson[]>(["show", id]);
		expect(records.map((record) => record.content?.[0]?.text)).toEqual(["kept", "kept too"]);
	});

	it("rejects a line that is not JSON without appending anything", async () => {
		const id = await cli.create();
		const result = await cli(["append", id], { input: "{not json\n" });
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("stdin line 1: not valid JSON");
		expect(result.stderr).toContain("nothing was appended");
		expect(await cli.json<RecordJson[]>(["show", id])).toEqual([]);
	});
});

describe("show, tail and context", () => {
	let id: string;

	beforeAll(async () => {
		id = await cli.create("--name", "reading");
		await cli.ok(["append", id], {
			input: jsonl(
				userBody("What pods are running?"),
				{
					recordType: "message",
					role: "assistant",
					content: [
						{ type: "text", text: "Let me check." },
						{ type: "toolCall", id: "tc_1", name: "bash", arguments: { command: "kubectl get pods" } },
					],
				},
				{
					recordType: "message",
					role: "toolResult",
					toolCallId: "tc_1",
					toolName: "bash",
					isError: false,
					content: [{ type: "text", text: "nginx 1/1 Running" }],
				},
				assistantBody("One pod: nginx."),
			),
		});
	});

	it("show prints the metadata and every record", async () => {
		const out = await cli.ok(["show", id]);
		expect(out).toContain("reading");
		for (const text of [
			"#1",
			"What pods are running?",
			"bash",
			"kubectl get pods",
			"nginx 1/1 Running",
			"#4",
			"One pod: nginx.",
		]) {
			expect(out).toContain(text);
		}
	});

	it("tail prints the last n records, as JSON lines with --json", async () => {
		const out = await cli.ok(["tail", id, "-n", "2", "--json"]);
		const records = out
			.trimEnd()
			.split("\n")
			.map((line) => JSON.parse(line) as RecordJson);
		expect(records.map((record) => record.seq)).toEqual([3, 4]);
		const text = await cli.ok(["tail", id, "-n", "1"]);
		expect(text).toContain("One pod: nginx.");
		expect(text).not.toContain("What pods");
	});

	it("context --json is { messages, estimatedTokens, compaction } as the LLM gets it", async () => {
		const context = await cli.json<{
			messages: Array<{ role: string; seq: number }>;
			estimatedTokens: number;
			compaction: unknown;
			leafSeq: number;
		}>(["context", id]);
		expect(context.messages.map((message) => [message.role, message.seq])).toEqual([
			["user", 1],
			["assistant", 2],
			["toolResult", 3],
			["assistant", 4],
		]);
		expect(context.estimatedTokens).toBeGreaterThan(0);
		expect(context.compaction).toBeNull();
		expect(context.leafSeq).toBe(4);
	});

	it("context --leaf builds the context of an earlier record", async () => {
		const context = await cli.json<{ messages: Array<{ seq: number }>; leafSeq: number }>([
			"context",
			id,
			"--leaf",
			"2",
		]);
		expect(context.messages.map((message) => message.seq)).toEqual([1, 2]);
		expect(context.leafSeq).toBe(2);
		const text = await cli.ok(["context", id, "--leaf", "2"]);
		expect(text).toContain("[assistant]");
		expect(text).not.toContain("nginx 1/1 Running");
	});
});
