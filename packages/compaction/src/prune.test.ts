import type { ContextMessage } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { prunedOutputPlaceholder, pruneToolOutputs } from "./prune.js";
import { words } from "./test-fixtures.js";

function turn(index: number, outputTokens: number, toolName = "read"): ContextMessage[] {
	const id = `call_${index}`;
	return [
		{ role: "user", content: [{ type: "text", text: `question ${index}` }], origin: "message", seq: index * 3 + 1 },
		{
			role: "assistant",
			content: [{ type: "toolCall", id, name: toolName, arguments: { path: `f${index}` } }],
			origin: "message",
			seq: index * 3 + 2,
		},
		{
			role: "toolResult",
			content: [{ type: "text", text: words(outputTokens) }],
			origin: "message",
			seq: index * 3 + 3,
			toolCallId: id,
			toolName,
			isError: false,
		},
	];
}

const session = (...turns: ContextMessage[][]) => turns.flat();
const options = { protectTokens: 1000, minimumTokens: 500, protectTurns: 2 };

describe("pruneToolOutputs (a view; writes nothing)", () => {
	it("replaces old tool output beyond the protected window with a placeholder", () => {
		const messages = session(turn(0, 800), turn(1, 800), turn(2, 800), turn(3, 800), turn(4, 800));
		const before = structuredClone(messages);
		const result = pruneToolOutputs(messages, options);
		// Turns 3 and 4 are the protected recent turns; turn 2 fits the 1000-token window; 0 and 1 go.
		expect(result.prunedCount).toBe(2);
		const placeholder = prunedOutputPlaceholder(messages[2] as ContextMessage, 800);
		expect(result.messages[2]?.content).toEqual([{ type: "text", text: placeholder }]);
		expect(result.messages[5]?.content).toEqual([{ type: "text", text: placeholder }]);
		expect(result.messages[8]).toBe(messages[8]);
		expect(result.prunedTokens).toBeGreaterThan(1500);
		expect(messages).toEqual(before);
		// The pairs stay: every result still follows its call.
		expect(result.messages.map((m) => m.role)).toEqual(messages.map((m) => m.role));
		expect(result.messages[2]?.toolCallId).toBe("call_0");
	});

	it("prunes nothing when less than minimumTokens would go", () => {
		const messages = session(turn(0, 300), turn(1, 800), turn(2, 10), turn(3, 10));
		const result = pruneToolOutputs(messages, options);
		expect(result).toEqual({ messages, prunedCount: 0, prunedTokens: 0 });
	});

	it("never prunes protected tools, and stops at the compaction summary", () => {
		const summary: ContextMessage = {
			role: "user",
			content: [{ type: "text", text: "S" }],
			origin: "compaction_summary",
		};
		const messages = [
			...turn(9, 5000),
			summary,
			...session(turn(0, 2000, "skill"), turn(1, 2000), turn(2, 2000), turn(3, 10), turn(4, 10)),
		];
		const result = pruneToolOutputs(messages, { ...options, protectedTools: ["skill"] });
		const pruned = result.messages.filter((m, i) => m !== messages[i]).map((m) => m.toolName);
		// Turn 2 alone is over the 1000-token window; turn 1 is older; turn 0 is a skill; turn 9 is before the summary.
		expect(pruned).toEqual(["read", "read"]);
		expect(result.messages[2]).toBe(messages[2]);
	});

	it("is idempotent: pruning a pruned view changes nothing", () => {
		const messages = session(turn(0, 800), turn(1, 800), turn(2, 800), turn(3, 800), turn(4, 800));
		const once = pruneToolOutputs(messages, options).messages;
		const twice = pruneToolOutputs(once, { ...options, minimumTokens: 0 });
		expect(twice.prunedCount).toBe(0);
	});
});
