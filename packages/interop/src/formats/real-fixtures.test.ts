import { parentSeqOf, type RecordInput } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { convertSession } from "../convert.js";
import { isObject } from "../json-lines.js";
import { realFixtures } from "../testing/real-fixtures.js";
import { ourContext } from "../testing/test-context.js";

/** Records no other record names as its parent: the tips of the branches `show --tree` draws. */
function leaves(records: readonly RecordInput[]): number[] {
	const parents = new Set<number>();
	records.forEach((record, index) => {
		const parent = parentSeqOf({ seq: index + 1, parentSeq: record.parentSeq });
		if (parent !== null) parents.add(parent);
	});
	return records.map((_, index) => index + 1).filter((seq) => !parents.has(seq));
}

function sourceValues(lines: readonly string[]): Record<string, unknown>[] {
	return lines.flatMap((line) => {
		const value: unknown = JSON.parse(line);
		return isObject(value) ? [value] : [];
	});
}

/** The tool call ids a source file holds, and the ids its tool results answer. */
function sourceToolIds(format: string, values: readonly Record<string, unknown>[]) {
	const calls = new Set<string>();
	const results = new Set<string>();
	for (const value of values) {
		if (format === "codex") {
			const payload = isObject(value.payload) ? value.payload : {};
			if (value.type !== "response_item") continue;
			if (payload.type === "function_call") calls.add(String(payload.call_id));
			if (payload.type === "function_call_output") results.add(String(payload.call_id));
			continue;
		}
		const message = isObject(value.message) ? value.message : {};
		for (const block of Array.isArray(message.content) ? message.content : []) {
			if (isObject(block) && block.type === "tool_use") calls.add(String(block.id));
			if (isObject(block) && block.type === "tool_result") results.add(String(block.tool_use_id));
		}
	}
	return { calls, results };
}

describe("real Codex and Claude Code files import with their whole conversation", () => {
	for (const fixture of [...realFixtures("codex"), ...realFixtures("claude")]) {
		describe(fixture.name, () => {
			const converted = convertSession(fixture.lines, { sourcePath: fixture.path });
			const context = ourContext(converted.records);

			it("every tool call and tool result of the file is in the context, each result named after its call", () => {
				const { calls, results } = sourceToolIds(fixture.format, sourceValues(fixture.lines));
				const names = new Map<string, string>();
				for (const message of context.messages) {
					for (const block of message.content) if (block.type === "toolCall") names.set(block.id, block.name);
				}
				const answered = context.messages.filter((message) => message.role === "toolResult");
				expect(new Set(names.keys())).toEqual(calls);
				expect(new Set(answered.map((message) => message.toolCallId))).toEqual(results);
				for (const result of answered) expect(result.toolName).toBe(names.get(result.toolCallId as string));
			});

			it("has one branch: lines outside the conversation (titles, summaries, snapshots) add no tips to the tree", () => {
				expect(leaves(converted.records)).toHaveLength(1);
			});

			it("holds its prompts (and a Claude Code session a name)", () => {
				expect(context.messages.some((message) => message.role === "user")).toBe(true);
				if (fixture.format === "claude") expect(converted.name).toBeTruthy();
			});
		});
	}
});

describe("real files: the defects of issue 16, each pinned", () => {
	const byName = (name: string) => {
		const fixture = [...realFixtures("codex"), ...realFixtures("claude")].find((f) => f.name.endsWith(name));
		if (!fixture) throw new Error(`no fixture ${name}`);
		return fixture;
	};

	it("a Claude Code summary whose leafUuid is in another session does not name this one; the first prompt does", () => {
		const fixture = byName("codemie-hooks-2.1.7.jsonl");
		expect(convertSession(fixture.lines, { sourcePath: fixture.path }).name).toBe("show tools");
	});

	it("a sub-agent file (agent-*.jsonl) keeps its whole conversation on the active path", () => {
		const fixture = byName("agent-a485154.jsonl");
		const converted = convertSession(fixture.lines, { sourcePath: fixture.path });
		expect(converted).toMatchObject({
			sourceId: "e9fb405b-169f-40eb-9396-7e75076f045d/agent-a485154",
			parentSourceId: "e9fb405b-169f-40eb-9396-7e75076f045d",
		});
		const roles = ourContext(converted.records).messages.map((message) => message.role);
		expect(roles).toEqual(["user", "assistant", "toolResult"]);
	});

	it("a Codex prompt held only by event_msg/user_message becomes the user message", () => {
		const fixture = byName("agent-history-exec-0.135.0.jsonl");
		const withoutItem = fixture.lines.filter(
			(line) => !line.includes('"role":"user","content":[{"type":"input_text","text":"[REDACTED_PROMPT]"}]'),
		);
		expect(withoutItem).toHaveLength(fixture.lines.length - 1);
		const prompts = (lines: readonly string[]) =>
			ourContext(convertSession(lines).records)
				.messages.filter((message) => message.role === "user")
				.map((message) => (message.content[0]?.type === "text" ? message.content[0].text : ""));
		expect(prompts(withoutItem).at(-1)).toBe("[REDACTED_PROMPT]");
		// When a response item holds it, it is not added a second time.
		expect(prompts(fixture.lines).filter((text) => text === "[REDACTED_PROMPT]")).toHaveLength(1);
	});

	it("a Codex response is written before the event lines after it (its place does not depend on later lines)", () => {
		const fixture = byName("agent-history-exec-0.135.0.jsonl");
		const records = convertSession(fixture.lines).records;
		const last = records.at(-1);
		expect(last).toMatchObject({
			recordType: "custom",
			customType: "codex:event_msg",
			data: { type: "task_complete" },
		});
		expect(records.at(-2)).toMatchObject({ role: "assistant", usage: { totalTokens: 22549 } });
	});
});
