import { type SessionRecord, SessionTree } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { type PathRowsCache, transcriptRows } from "../web/src/transcript.js";
import { treeLines } from "../web/src/tree-lines.js";

function message(seq: number, text: string, parentSeq?: number): SessionRecord {
	return {
		recordType: "message",
		schemaVersion: 1,
		seq,
		timestamp: "2026-01-01T00:00:00.000Z",
		role: seq % 2 === 1 ? "user" : "assistant",
		content: [{ type: "text", text }],
		...(parentSeq !== undefined ? { parentSeq } : {}),
	};
}

const keys = (tree: SessionTree, leaf: number, cache?: PathRowsCache, complete = true) =>
	transcriptRows({ tree, leaf, activeLeaf: leaf, complete, streaming: false }, cache).map((row) => row.key);

describe("the transcript's rows", () => {
	it("a record appended at the shown leaf extends the cached rows; the result equals a fresh walk", () => {
		const tree = new SessionTree([message(1, "a"), message(2, "b"), message(3, "c")]);
		const cache: PathRowsCache = {};
		expect(keys(tree, 3, cache)).toEqual([1, 2, 3]);
		const before = cache.rows;
		tree.add(message(4, "d"));
		expect(keys(tree, 4, cache)).toEqual([1, 2, 3, 4]);
		expect(cache.rows?.slice(0, 3)).toEqual(before);
		expect(keys(tree, 4)).toEqual([1, 2, 3, 4]);
	});

	it("a branch elsewhere on the path is not missed: the switcher appears although the leaf is the same", () => {
		const tree = new SessionTree([message(1, "a"), message(2, "b"), message(3, "c")]);
		const cache: PathRowsCache = {};
		keys(tree, 3, cache);
		tree.add(message(4, "other", 2));
		expect(keys(tree, 3, cache)).toEqual([1, 2, "switch-3", 3]);
		expect(keys(tree, 4, cache)).toEqual([1, 2, "switch-4", 4]);
	});

	it("says older records are still loading while the path does not reach its root", () => {
		const tree = new SessionTree([message(5, "e", 4), message(6, "f")]);
		expect(keys(tree, 6, undefined, false)).toEqual(["older", 5, 6]);
	});
});

describe("the tree tab's lines", () => {
	it("indents each branch under its branch point and never lists labels", () => {
		const tree = new SessionTree([
			message(1, "a"),
			message(2, "b"),
			message(3, "left"),
			message(4, "right", 2),
			{
				recordType: "label",
				schemaVersion: 1,
				seq: 5,
				timestamp: "2026-01-01T00:00:00.000Z",
				targetSeq: 1,
				label: "start",
			},
		]);
		expect(treeLines(tree).map((line) => [line.record.seq, line.depth, line.branchStart])).toEqual([
			[1, 0, false],
			[2, 0, false],
			[3, 1, true],
			[4, 1, true],
		]);
	});
});
