import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildContext, buildContextFromPath } from "./context.js";
import { parseRecordLine } from "./parse.js";
import { serializeRecord } from "./serialize.js";
import { sessionTree } from "./test-arbitraries.js";
import { SessionTree } from "./tree.js";

const treeAndLeaf = sessionTree.chain((records) =>
	fc.record({
		records: fc.constant(records),
		leaf: fc.integer({ min: 1, max: records.length }),
		ephemeral: fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 }),
	}),
);

describe("context building over random trees with random compactions and leaves", () => {
	it("never emits a toolResult without its toolCall earlier in the context", () => {
		fc.assert(
			fc.property(treeAndLeaf, ({ records, leaf, ephemeral }) => {
				const context = buildContext(records, { leafSeq: leaf, ephemeral: ephemeral.map((content) => ({ content })) });
				const calls = new Set<string>();
				for (const message of context.messages) {
					if (message.role === "assistant") {
						for (const block of message.content) if (block.type === "toolCall") calls.add(block.id);
					}
					if (message.role === "toolResult") expect(calls.has(message.toolCallId ?? "")).toBe(true);
				}
			}),
			{ numRuns: 500 },
		);
	});

	it("emits only records on the leaf's path, in path order, and never a custom record", () => {
		fc.assert(
			fc.property(treeAndLeaf, ({ records, leaf }) => {
				const tree = new SessionTree(records);
				const onPath = tree.path(leaf).map((record) => record.seq);
				const context = buildContext(tree, { leafSeq: leaf });
				const emitted = context.messages.map((m) => m.seq as number);
				expect(emitted.every((seq) => onPath.includes(seq))).toBe(true);
				// The compaction summary comes first; every other message follows path order.
				const rest = context.messages.filter((m) => m.origin !== "compaction_summary").map((m) => m.seq as number);
				expect([...rest].sort((a, b) => a - b)).toEqual(rest);
				for (const seq of emitted) expect(tree.get(seq)?.recordType).not.toBe("custom");
			}),
			{ numRuns: 300 },
		);
	});

	it("uses the latest compaction on the leaf's path and no other", () => {
		fc.assert(
			fc.property(treeAndLeaf, ({ records, leaf }) => {
				const path = new SessionTree(records).path(leaf);
				const latest = path.filter((record) => record.recordType === "compaction").at(-1);
				const context = buildContext(records, { leafSeq: leaf });
				expect(context.compaction?.seq).toBe(latest?.seq);
				const summaries = context.messages.filter((m) => m.origin === "compaction_summary");
				expect(summaries.map((m) => m.seq)).toEqual(latest ? [latest.seq] : []);
			}),
			{ numRuns: 300 },
		);
	});

	it("gives the same messages from the path suffix that starts at the compaction's firstKeptSeq (the backward read)", () => {
		fc.assert(
			fc.property(treeAndLeaf, ({ records, leaf }) => {
				const path = new SessionTree(records).path(leaf);
				const compactionIndex = path.findLastIndex((record) => record.recordType === "compaction");
				if (compactionIndex < 0) return;
				const compaction = path[compactionIndex];
				if (compaction?.recordType !== "compaction") return;
				const kept = path.findIndex((record) => record.seq >= compaction.firstKeptSeq);
				const suffix = path.slice(Math.min(kept < 0 ? compactionIndex : kept, compactionIndex));
				expect(buildContextFromPath(suffix).messages).toEqual(buildContext(records, { leafSeq: leaf }).messages);
			}),
			{ numRuns: 300 },
		);
	});

	it("gives the same context after the records went through serialize and parse", () => {
		fc.assert(
			fc.property(treeAndLeaf, ({ records, leaf }) => {
				const reread = records.map((record) => {
					const parsed = parseRecordLine(serializeRecord(record));
					if (!parsed.ok) throw new Error(parsed.problem.message);
					return parsed.record;
				});
				expect(buildContext(reread, { leafSeq: leaf })).toEqual(buildContext(records, { leafSeq: leaf }));
			}),
			{ numRuns: 200 },
		);
	});
});
