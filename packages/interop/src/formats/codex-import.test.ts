import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { firstTexts, normaliseOurs, ourContext } from "../testing/test-context.js";
import { convertCodex } from "./codex-import.js";

const FIXTURE = fileURLToPath(
	new URL(
		"../../test/fixtures/codex/rollout-2025-09-01T10-00-00-5f1c2a3b-0000-4000-8000-00000000c0de.jsonl",
		import.meta.url,
	),
);
const lines = readFileSync(FIXTURE, "utf8").split("\n");

describe("convertCodex", () => {
	const converted = convertCodex(lines, { sourcePath: FIXTURE });
	const context = ourContext(converted.records);

	it("keys the session by session_meta.id and keeps its cwd, time and model", () => {
		expect(converted).toMatchObject({
			format: "codex",
			sourceId: "5f1c2a3b-0000-4000-8000-00000000c0de",
			createdAt: "2025-09-01T10:00:00.000Z",
			cwd: "/home/dev/app",
			model: "openai/gpt-5",
		});
		expect(converted.records[0]).toMatchObject({ recordType: "custom", customType: "codex:session_meta" });
	});

	it("a compacted line with replacement_history: summary first, then the replacement items, then what follows", () => {
		expect(firstTexts(normaliseOurs(context))).toEqual([
			"The user ran the tests; both pass.",
			"Run the tests.",
			"Now lint.",
			"",
			"lint failed",
			"Lint fails; see above.",
		]);
		expect(context.compaction?.summary).toBe("The user ran the tests; both pass.");
		expect(context.model).toEqual({ provider: "openai", modelId: "gpt-5" });
		expect(context.thinkingLevel).toBe("high");
	});

	it("gathers one response's reasoning and function call into one assistant message with usage", () => {
		const assistant = converted.records.find(
			(r) => r.recordType === "message" && r.role === "assistant" && r.content.some((b) => b.type === "toolCall"),
		);
		expect(assistant).toMatchObject({
			content: [
				{ type: "thinking", thinking: "**Running tests**", thinkingSignature: "gAAAAenc1" },
				{
					type: "toolCall",
					id: "call_A",
					name: "shell",
					arguments: { command: ["npm", "test"], workdir: "/home/dev/app" },
				},
			],
			provider: "openai",
			model: "gpt-5-codex",
			stopReason: "toolUse",
			usage: { input: 1000, cacheRead: 200, output: 40, totalTokens: 1240 },
		});
		const result = converted.records.find((r) => r.recordType === "message" && r.role === "toolResult");
		expect(result).toMatchObject({ toolCallId: "call_A", toolName: "shell", isError: false });
	});

	it("maps images, custom tool calls, local shell calls and failed outputs", () => {
		const user = converted.records.find(
			(r) => r.recordType === "message" && r.role === "user" && r.content.length === 2,
		);
		expect(user).toMatchObject({
			content: [{ text: "Run the tests." }, { type: "image", mimeType: "image/png", data: "aGVsbG8=" }],
		});
		const calls = converted.records
			.flatMap((r) => (r.recordType === "message" ? r.content : []))
			.filter((b) => b.type === "toolCall");
		expect(calls.map((c) => c.name)).toEqual(["shell", "apply_patch", "local_shell"]);
		const lint = converted.records.find((r) => r.recordType === "message" && r.toolCallId === "call_C");
		expect(lint).toMatchObject({ isError: true, toolName: "local_shell" });
	});

	it("keeps what has no equivalent as custom records and says so", () => {
		const customTypes = converted.records.flatMap((r) => (r.recordType === "custom" ? [r.customType] : []));
		expect(customTypes).toEqual(
			expect.arrayContaining([
				"codex:ghost_snapshot",
				"codex:web_search_call",
				"codex:event_msg",
				"codex:future_line_type",
			]),
		);
		const text = converted.warnings.join("\n");
		expect(text).toMatch(/line 16: a "ghost_snapshot" response item/);
		expect(text).toMatch(/line 25: a "future_line_type" line/);
		expect(text).toMatch(/restate response items/);
		expect(converted.records.some((r) => r.recordType === "custom_message" && r.customType === "codex:developer")).toBe(
			true,
		);
	});

	it("refuses a file without a session id, naming it", () => {
		expect(() =>
			convertCodex(['{"timestamp":"t","type":"event_msg","payload":{"type":"x"}}'], { sourcePath: "/tmp/a.jsonl" }),
		).toThrow(/@agent\/interop: \/tmp\/a.jsonl: has no session_meta line with an id/);
	});

	it("reads the older rollout shape (a bare meta line, then bare items)", () => {
		const old = convertCodex([
			JSON.stringify({ id: "old-1", timestamp: "2025-05-01T00:00:00Z", instructions: "be nice" }),
			JSON.stringify({ type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }),
			JSON.stringify({ type: "message", role: "assistant", content: [{ type: "output_text", text: "hello" }] }),
		]);
		expect(old.sourceId).toBe("old-1");
		expect(firstTexts(normaliseOurs(ourContext(old.records)))).toEqual(["hi", "hello"]);
	});
});
