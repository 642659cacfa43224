import { describe, expect, it } from "vitest";
import { detectFormat } from "../detect-format.js";
import { shapeFixtures } from "../testing/real-fixtures.js";
import { briefMessage, ourContext } from "../testing/test-context.js";
import { convertCopilot } from "./copilot-import.js";

const [fixture] = shapeFixtures("copilot");
const lines = fixture?.lines ?? [];

describe("GitHub Copilot CLI session events (copilotVersion 1.0.x)", () => {
	const converted = convertCopilot(lines, { sourcePath: fixture?.path });
	const messages = (role: string) => converted.records.filter((r) => r.recordType === "message" && r.role === role);

	it("is detected from its session.start event and keyed by its sessionId, with its cwd and model", () => {
		expect(detectFormat(lines)).toBe("copilot");
		expect(converted).toMatchObject({
			format: "copilot",
			sourceId: "6d0c2e9a-41f7-4b3d-9a8e-5f1b7c3d1063",
			cwd: "/home/dev/cli",
			model: "github-copilot/gpt-5.4",
			name: "Why is `cli --help` slow?",
		});
	});

	it("prompts, answers with their tool requests and tool results are messages; a sub-agent's events stay out of them", () => {
		expect([messages("user").length, messages("assistant").length, messages("toolResult").length]).toEqual([2, 5, 3]);
		expect(messages("assistant")[0]).toMatchObject({
			content: [
				{ type: "thinking", thinking: "Profile the startup." },
				{ type: "toolCall", id: "call_a1", name: "bash", arguments: { command: "time node bin/cli.js --help" } },
			],
			stopReason: "toolUse",
		});
		expect(messages("assistant")[3]).toMatchObject({
			content: [{ type: "toolCall", name: "edit", arguments: { path: "src/index.ts" } }],
		});
		expect(messages("toolResult").at(-1)).toMatchObject({
			toolName: "edit",
			isError: true,
			content: [{ text: "old_str not found in src/index.ts" }],
		});
		const kept = converted.records
			.filter((r) => r.recordType === "custom")
			.map((r) => (r as { customType: string }).customType);
		expect(kept).toEqual(expect.arrayContaining(["copilot:subagent", "copilot:system.message", "copilot:attachments"]));
	});

	it("a compaction keeps what Copilot kept (preCompactionMessagesLength - messagesRemoved) after its summary", () => {
		expect(ourContext(converted.records).messages.map(briefMessage)).toEqual([
			"user(compaction_summary): The conversation history before this point was compacted into the following summary:",
			"user: Do it.",
			"assistant: call edit",
			"toolResult: old_str not found in src/index.ts",
			"assistant: The import line differs; reading the file first.",
		]);
	});

	it("a cleared conversation starts again: what came before stays on a branch of its own", () => {
		const start = lines.slice(0, 8);
		const cleared = JSON.stringify({
			type: "session.context_cleared",
			data: { messagesCleared: 4, initialMessage: "Start over: profile the tests." },
			id: "c1",
			timestamp: "2026-06-18T19:20:00.000Z",
			parentId: null,
		});
		const context = ourContext(convertCopilot([...start, cleared]).records);
		expect(context.messages.map(briefMessage)).toEqual(["user: Start over: profile the tests."]);
	});
});
