import { type SessionRecord, SessionTree } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { branchTips, latestLeafUnder, leafLabel, siblingsOf } from "../web/src/branches.js";

function message(seq: number, role: "user" | "assistant", text: string, parentSeq?: number | null): SessionRecord {
	return {
		recordType: "message",
		schemaVersion: 1,
		seq,
		timestamp: "2026-01-01T00:00:00.000Z",
		role,
		content: [{ type: "text", text }],
		...(parentSeq !== undefined ? { parentSeq } : {}),
	};
}

// 1 user "start" → 2 reply → 3 user "left" → 4 reply
//                          ↘ 5 user "right" (parent 2) → 6 reply → 7 user "right again"
const tree = new SessionTree([
	message(1, "user", "start"),
	message(2, "assistant", "ok"),
	message(3, "user", "left"),
	message(4, "assistant", "left reply"),
	message(5, "user", "right", 2),
	message(6, "assistant", "right reply"),
	message(7, "user", "right again"),
]);

describe("the page's branch helpers", () => {
	it("siblingsOf lists the records sharing a parent: where the transcript shows a switcher", () => {
		expect(siblingsOf(tree, 3)).toEqual([3, 5]);
		expect(siblingsOf(tree, 5)).toEqual([3, 5]);
		expect(siblingsOf(tree, 4)).toEqual([4]);
		expect(siblingsOf(tree, 1)).toEqual([1]);
	});

	it("latestLeafUnder finds the newest tip of a branch, to show when switching to it", () => {
		expect(latestLeafUnder(tree, 3)).toBe(4);
		expect(latestLeafUnder(tree, 5)).toBe(7);
		expect(latestLeafUnder(tree, 1)).toBe(7);
		expect(latestLeafUnder(tree, 7)).toBe(7);
	});

	it("branchTips lists every leaf newest first, labelled by its last user message", () => {
		expect(branchTips(tree)).toEqual([
			{ leaf: 7, shown: 7 },
			{ leaf: 4, shown: 4 },
		]);
		// A label written after the last message is a side record of the log: never a tip of its own.
		const labelled = new SessionTree([
			...tree.records(),
			{
				recordType: "label",
				schemaVersion: 1,
				seq: 8,
				timestamp: "2026-01-01T00:00:00.000Z",
				targetSeq: 1,
				label: "x",
			},
		]);
		expect(branchTips(labelled)).toEqual([
			{ leaf: 7, shown: 7 },
			{ leaf: 4, shown: 4 },
		]);
		expect(leafLabel(tree, 4)).toBe("left");
		expect(leafLabel(tree, 7)).toBe("right again");
	});
});
