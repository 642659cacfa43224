import { describe, expect, it } from "vitest";
import { type RealFixture, shapeFixtures } from "../testing/real-fixtures.js";
import { briefMessage, ourContext } from "../testing/test-context.js";
import { convertCodex } from "./codex-import.js";

const fixtures = shapeFixtures("codex");
function fixture(part: string): RealFixture {
	const found = fixtures.find((f) => f.name.includes(part));
	if (!found) throw new Error(`no fixture ${part}`);
	return found;
}

describe("Codex 0.141 (CLI): world_state lines, a rollback, a compaction", () => {
	const f = fixture("codex-0.141.0/");
	const converted = convertCodex(f.lines, { sourcePath: f.path });
	const context = ourContext(converted.records);

	it("the context is the summary, the replacement history and what follows; the rolled back turn is not in it", () => {
		expect(context.messages.map(briefMessage)).toEqual([
			"user(compaction_summary): The conversation history before this point was compacted into the following summary:",
			"user: Add a retry helper to src/http.ts.",
			"user: Also make it exponential.",
			"user: Add a test for it.",
			"assistant: call exec_command",
			"toolResult: 1 passing",
			"assistant: Added test/http.test.ts; it passes.",
		]);
		expect(context.compaction?.summary).toBe(
			"The user asked for a retry helper in src/http.ts; it was added with exponential backoff.",
		);
	});

	it("a rollback leaves the dropped turn in the session, on a branch of its own", () => {
		const dropped = converted.records.findIndex(
			(r) =>
				r.recordType === "message" &&
				r.content[0]?.type === "text" &&
				r.content[0].text === "Actually, use a fixed delay.",
		);
		expect(dropped).toBeGreaterThan(0);
		const marker = converted.records.findIndex(
			(r) => r.recordType === "custom" && JSON.stringify(r.data).includes("thread_rolled_back"),
		);
		expect((converted.records[marker] as { parentSeq?: number }).parentSeq).toBeLessThan(dropped + 1);
	});

	it("one model response is one assistant message: Codex's token count after a response ends it", () => {
		const assistants = converted.records.filter((r) => r.recordType === "message" && r.role === "assistant");
		expect(assistants.map((r) => (r.recordType === "message" ? r.content.map((b) => b.type).join("+") : ""))).toEqual([
			"thinking+toolCall",
			"toolCall",
			"text",
			"text",
			"text",
			"toolCall",
			"text",
		]);
		expect(assistants[0]).toMatchObject({ usage: { totalTokens: 21080 } });
	});
});

describe("Codex Desktop 0.145: several session_meta lines, a sub-agent and the messages agents send each other", () => {
	const parent = convertCodex(fixture("-019f7c22-").lines);
	const child = convertCodex(fixture("-019f7c23-").lines);

	it("the first session_meta names the rollout; later ones are kept", () => {
		expect(parent.sourceId).toBe("019f7c22-8e41-7a03-b6d2-1c4e9f0a0145");
		expect(child.sourceId).toBe("019f7c23-0b17-7e55-8a9c-5d2e7b1f0145");
		expect(
			parent.records.filter((r) => r.recordType === "custom" && r.customType === "codex:session_meta"),
		).toHaveLength(2);
	});

	it("a sub-agent's rollout names the thread that spawned it", () => {
		expect(child.parentSourceId).toBe(parent.sourceId);
		expect(parent.parentSourceId).toBeUndefined();
	});

	it("what another agent sends is context the model reads (agent_message, inter_agent_communication)", () => {
		expect(ourContext(parent.records).messages.map(briefMessage)).toEqual([
			"user: Review the retry helper with a sub-agent.",
			"assistant: call spawn_agent",
			'toolResult: {"task_name":"/root/review"}',
			"user(custom_message): retry() never waits between tries.",
			"assistant: The reviewer found that retry() never waits; I will add the delay.",
		]);
		expect(ourContext(child.records).messages.map(briefMessage)).toEqual([
			"user(custom_message): Review src/http.ts retry().",
			"assistant: call exec_command",
			"toolResult: export async function retry(fn, n = 3) { for (;;) { try { return await fn(); } catch {} } }",
			"assistant: retry() never waits between tries.",
		]);
	});
});
