import { type ContextMessage, parentSeqOf, type RecordInput } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { type RealFixture, shapeFixtures } from "../testing/real-fixtures.js";
import { briefMessage, ourContext } from "../testing/test-context.js";
import { convertClaude } from "./claude-import.js";

const fixtures = shapeFixtures("claude");
function fixture(version: string): RealFixture {
	const found = fixtures.find((f) => f.name.startsWith(`claude/claude-${version}/`) && !f.name.includes("subagents"));
	if (!found) throw new Error(`no fixture for ${version}`);
	return found;
}

function convert(f: RealFixture, lines: readonly string[] = f.lines) {
	const converted = convertClaude(lines, { sourcePath: f.path });
	return { converted, context: ourContext(converted.records) };
}

function leaves(records: readonly RecordInput[]): number {
	const parents = new Set<number>();
	records.forEach((record, index) => {
		const parent = parentSeqOf({ seq: index + 1, parentSeq: record.parentSeq });
		if (parent !== null) parents.add(parent);
	});
	return records.filter((_, index) => !parents.has(index + 1)).length;
}

const count = (records: readonly RecordInput[], role: string) =>
	records.filter((record) => record.recordType === "message" && record.role === role).length;

describe("Claude Code 2.1.39: progress lines in the chain, a sub-agent, an automatic compaction", () => {
	const f = fixture("2.1.39");
	const { converted, context } = convert(f);

	it("messages whose parent is a progress or system line keep their place: every message is imported", () => {
		expect([
			count(converted.records, "user"),
			count(converted.records, "assistant"),
			count(converted.records, "toolResult"),
		]).toEqual([3, 6, 3]);
		expect(converted.warnings.join("\n")).not.toMatch(/parentUuid is not in the file/);
	});

	it("the context after the compaction is the summary, the file re-read between boundary and summary, and what follows", () => {
		expect(context.messages.map(briefMessage)).toEqual([
			"user(compaction_summary): The conversation history before this point was compacted into the following summary:",
			"user(custom_message): [file] /home/dev/shop/src/cart.ts",
			"user: Go on.",
			"assistant: call Edit",
			"toolResult: The file has been updated.",
			"assistant: Fixed: the total is rounded once.",
		]);
		expect(context.compaction).toMatchObject({ tokensBefore: 155320, trigger: "threshold" });
	});

	it("progress, system and marker lines are kept as custom records that add no branch", () => {
		const kept = converted.records
			.filter((r) => r.recordType === "custom")
			.map((r) => (r as { customType: string }).customType);
		expect(kept.filter((type) => type === "claude:progress")).toHaveLength(6);
		expect(kept).toEqual(expect.arrayContaining(["claude:system", "claude:compact_boundary", "claude:last-prompt"]));
		expect(leaves(converted.records)).toBe(1);
	});

	it("the sub-agent's own file (<session>/subagents/agent-<id>.jsonl) names the session that spawned it", () => {
		const sub = fixtures.find(
			(candidate) => candidate.name.includes("claude-2.1.39/") && candidate.name.includes("subagents"),
		);
		const agent = convertClaude(sub?.lines ?? [], { sourcePath: sub?.path });
		expect(agent).toMatchObject({
			sourceId: `${converted.sourceId}/agent-a7f3c21`,
			parentSourceId: converted.sourceId,
		});
		expect(ourContext(agent.records).messages.map((m) => m.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"assistant",
		]);
	});
});

describe("Claude Code 2.1.29: meta lines, a slash command, images, a compaction that keeps its latest messages", () => {
	const f = fixture("2.1.29");
	const { converted, context } = convert(f);

	it("meta lines reach the model as context (custom messages), the user's own lines are user messages, images kept", () => {
		const meta = converted.records.filter((r) => r.recordType === "custom_message");
		expect(meta.map((r) => (r as { customType: string }).customType)).toEqual(["claude:meta", "claude:meta"]);
		expect(count(converted.records, "user")).toBe(5);
		const images = converted.records.flatMap((r) =>
			r.recordType === "message" ? r.content.filter((b) => b.type === "image") : [],
		);
		expect(images).toHaveLength(4);
		expect(converted.name).toBe("The header overlaps the menu, see:");
	});

	it("the preserved segment (head to tail) is kept after the summary, and the prompt hung under its tail follows the compaction", () => {
		expect(context.messages.map(briefMessage)).toEqual([
			"user(compaction_summary): The conversation history before this point was compacted into the following summary:",
			"user: Here are two more screenshots:",
			"assistant: call Read",
			"toolResult: image",
			"assistant: Both show the same overlap.",
			"user: Fix it with a grid.",
			"assistant: Done: the layout is a two-row grid now.",
		]);
		expect(context.compaction).toMatchObject({ tokensBefore: 61200, trigger: "manual" });
	});

	it("preservedMessages (the newer form: the kept uuids in order) keeps the same messages", () => {
		const lines = f.lines.map((line) =>
			line.includes('"preservedSegment"')
				? line.replace(
						/"preservedSegment":\{[^}]*\}/,
						'"preservedMessages":{"anchorUuid":"cs1","uuids":["u3","a3","u4","a4"],"allUuids":["u3","a3","u4","a4"]}',
					)
				: line,
		);
		expect(lines.join("\n")).toContain("preservedMessages");
		expect(convert(f, lines).context.messages.map(briefMessage)).toEqual(context.messages.map(briefMessage));
	});
});

describe("Claude Code 2.1.210: a file that starts with last-prompt, mode and permission-mode lines", () => {
	const f = fixture("2.1.210");
	const { converted, context } = convert(f);
	const prompts = (messages: readonly ContextMessage[]) =>
		messages.filter((m) => m.role === "user" && m.origin === "message").map(briefMessage);

	it("keeps its whole conversation: every prompt, the one queued while the agent worked included", () => {
		expect(prompts(context.messages)).toEqual([
			"user: Add rate limiting to the API.",
			"user: 100 requests a minute.",
			"user: Also log when a client is limited.",
			"user: Use 429 with Retry-After.",
			"user: Write a test.",
			"user: Run it.",
			"user: Make the limit configurable.",
			"user: Document it in the README.",
			"user: Ship it.",
		]);
		expect(context.messages.filter((m) => m.role === "assistant")).toHaveLength(9);
		expect(converted.name).toBe("Add rate limiting to the API");
	});

	it("attachments Claude Code sends (a SessionStart hook's output, skills, reminders, edits) are context; the others are kept aside", () => {
		expect(context.messages.filter((m) => m.origin === "custom_message").map(briefMessage)).toEqual([
			"user(custom_message): [hook_success] Branch main is clean.",
			"user(custom_message): [skill_listing] - review: review a diff",
			'user(custom_message): [todo_reminder] {"content":[],"itemCount":0}',
			"user(custom_message): [edited_text_file] /home/dev/api/limit.ts",
		]);
		const text = converted.warnings.join("\n");
		expect(text).toMatch(/an attachment \(deferred_tools_record\) Claude Code does not send the model/);
		expect(text).toMatch(/an attachment \(hook_success\) Claude Code does not send the model/);
	});

	it("a file that starts mid-conversation (its first parentUuid is not in the file) keeps the conversation it holds", () => {
		const start = f.lines.findIndex((line) => line.includes('"uuid":"u3"'));
		const cut = convert(f, f.lines.slice(start));
		expect(prompts(cut.context.messages)[0]).toBe("user: Use 429 with Retry-After.");
		expect(prompts(cut.context.messages)).toHaveLength(6);
	});
});
