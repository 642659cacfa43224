import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { firstTexts, normaliseOurs, ourContext } from "../testing/test-context.js";
import { convertClaude } from "./claude-import.js";

const SESSION = "7c0e1d2f-3333-4c4c-9d9d-00000000c1a0";
const FIXTURE = fileURLToPath(new URL(`../../test/fixtures/claude/${SESSION}.jsonl`, import.meta.url));
const lines = readFileSync(FIXTURE, "utf8").split("\n");

describe("convertClaude", () => {
	const converted = convertClaude(lines, { sourcePath: FIXTURE });
	const context = ourContext(converted.records);

	it("keys the session by its sessionId and keeps name, cwd, time and model", () => {
		expect(converted).toMatchObject({
			format: "claude",
			sourceId: SESSION,
			createdAt: "2025-10-01T09:00:00.000Z",
			cwd: "/home/dev/site",
			name: "Flaky test fix",
			model: "anthropic/claude-sonnet-4-5-20250929",
		});
	});

	it("compact_boundary + isCompactSummary become one compaction; the context is the summary and what follows", () => {
		expect(firstTexts(normaliseOurs(context))).toEqual([
			"This session is being continued from a previous conversation that ran out of context. Summary: the test races on the timer.",
			"Fix it.",
			"",
			"ok",
			"Fixed.",
		]);
		expect(context.compaction).toMatchObject({ tokensBefore: 15000, trigger: "manual" });
	});

	it("the compaction hangs under its boundary, kept under the boundary's logicalParentUuid, so the history before it stays on the path", () => {
		const parentOf = (seq: number) => {
			const record = converted.records[seq - 1] as { parentSeq?: number | null };
			return record.parentSeq === undefined ? seq - 1 : (record.parentSeq as number);
		};
		const compactionSeq = converted.records.findIndex((r) => r.recordType === "compaction") + 1;
		const boundary = converted.records[parentOf(compactionSeq) - 1];
		expect(boundary).toMatchObject({ recordType: "custom", customType: "claude:compact_boundary" });
		const parent = converted.records[parentOf(parentOf(compactionSeq)) - 1];
		expect(parent).toMatchObject({ role: "assistant", content: [{ text: "It races on the timer." }] });
	});

	it("merges the lines of one API response (same message.id) into one assistant message", () => {
		const first = converted.records.find((r) => r.recordType === "message" && r.role === "assistant");
		expect(first).toMatchObject({
			content: [
				{ type: "thinking", thinking: "Probably a race.", thinkingSignature: "sig-a" },
				{ type: "text", text: "Let me look." },
				{ type: "toolCall", id: "toolu_1", name: "Read" },
			],
			stopReason: "toolUse",
			usage: { input: 12, output: 30, cacheRead: 2000, cacheWrite: 100, totalTokens: 2142 },
		});
		const result = converted.records.find((r) => r.recordType === "message" && r.toolCallId === "toolu_1");
		expect(result).toMatchObject({
			role: "toolResult",
			content: [{ text: "line1\nline2" }],
			details: { type: "text" },
		});
		// the tool result's parent is the merged message
		const resultSeq = converted.records.indexOf(result as (typeof converted.records)[number]) + 1;
		const firstSeq = converted.records.indexOf(first as (typeof converted.records)[number]) + 1;
		expect((result as { parentSeq?: number }).parentSeq ?? resultSeq - 1).toBe(firstSeq);
	});

	it("the abandoned branch, sidechain and off-chain lines are kept but stay off the active path", () => {
		const path = context.messages.map((m) => m.seq);
		const abandoned =
			converted.records.findIndex(
				(r) =>
					r.recordType === "message" && r.content[0]?.type === "text" && r.content[0].text === "Actually, never mind.",
			) + 1;
		expect(abandoned).toBeGreaterThan(0);
		expect(path).not.toContain(abandoned);
		const customTypes = converted.records.flatMap((r) => (r.recordType === "custom" ? [r.customType] : []));
		expect(customTypes).toEqual(
			expect.arrayContaining([
				"claude:summary",
				"claude:file-history-snapshot",
				"claude:queue-operation",
				"claude:content",
			]),
		);
		expect(converted.records.some((r) => r.recordType === "session_info" && r.name === "Flaky test fix")).toBe(true);
		const text = converted.warnings.join("\n");
		expect(text).toMatch(/line 9: a "file-history-snapshot" line has no equivalent/);
		expect(text).toMatch(/line 15: content blocks without an equivalent \(server_tool_use\)/);
	});

	it("an agent (sidechain) file is keyed apart from its parent session", () => {
		const agent = [
			{
				type: "user",
				uuid: "x1",
				parentUuid: null,
				isSidechain: true,
				agentId: "ab12",
				sessionId: SESSION,
				timestamp: "2025-10-01T09:00:00Z",
				message: { role: "user", content: "task" },
			},
		].map((l) => JSON.stringify(l));
		expect(convertClaude(agent, { sourcePath: "/p/agent-ab12.jsonl" }).sourceId).toBe(`${SESSION}/agent-ab12`);
	});

	it("refuses a file with no conversation lines", () => {
		expect(() =>
			convertClaude(['{"type":"summary","summary":"x","leafUuid":"y"}'], { sourcePath: "/p/s.jsonl" }),
		).toThrow(/@agent\/interop: \/p\/s.jsonl: has no user or assistant line/);
	});
});

describe("convertClaude: compactions without noise", () => {
	it("a line outside the chain between a compact_boundary and its summary does not split them (no warning)", () => {
		const withSnapshot = [...lines];
		const boundary = withSnapshot.findIndex((line) => line.includes('"compact_boundary"'));
		withSnapshot.splice(
			boundary + 1,
			0,
			JSON.stringify({ type: "file-history-snapshot", messageId: "m", snapshot: {}, isSnapshotUpdate: false }),
		);
		const converted = convertClaude(withSnapshot, { sourcePath: FIXTURE });
		expect(converted.warnings.join("\n")).not.toMatch(/compact_boundary/);
		expect(converted.records.filter((r) => r.recordType === "compaction")).toHaveLength(1);
	});
});
