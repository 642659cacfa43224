import { readFileSync, writeFileSync } from "node:fs";
import { buildContext, type RecordInput, SessionTree, type StoredRecord } from "@agent/session-format";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { modelDefault } from "./metadata-derive.js";
import { tempStore } from "./test-home.js";

type Op =
	| { kind: "turn"; text: string; tool: boolean }
	| { kind: "compaction"; keepFrom: number; recent: boolean }
	| { kind: "branch"; at: number }
	| { kind: "custom" }
	| { kind: "corrupt"; at: number };

// Positions are drawn as whole numbers and taken modulo the session's length when used.
const position = fc.nat({ max: 10_000 });
const op: fc.Arbitrary<Op> = fc.oneof(
	{
		weight: 6,
		arbitrary: fc.record({
			kind: fc.constant("turn" as const),
			text: fc.string({ maxLength: 30 }),
			tool: fc.boolean(),
		}),
	},
	{
		weight: 3,
		arbitrary: fc.record({ kind: fc.constant("compaction" as const), keepFrom: position, recent: fc.boolean() }),
	},
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant("branch" as const), at: position }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant("custom" as const) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant("corrupt" as const), at: position }) },
);

/** A seq in 1..last. */
const pick = (n: number, last: number) => 1 + (n % last);

// Tiny chunks, so lines straddle every chunk edge.
const { store, home, cleanup } = tempStore({ backwardChunkBytes: 97, forwardChunkBytes: 131 });
afterAll(cleanup);

async function play(ops: readonly Op[]): Promise<string> {
	const { id } = await store.create({ systemPromptOverride: "sys" });
	let calls = 0;
	for (const step of ops) {
		const last = (await store.metadata(id)).lastSeq;
		if (step.kind === "turn") {
			const batch: RecordInput[] = [
				{ recordType: "message", role: "user", content: [{ type: "text", text: step.text }] },
			];
			if (step.tool) {
				const callId = `call_${++calls}`;
				batch.push(
					{
						recordType: "message",
						role: "assistant",
						provider: "faux",
						model: "faux-1",
						content: [{ type: "toolCall", id: callId, name: "read", arguments: { path: "a.txt" } }],
					},
					{
						recordType: "message",
						role: "toolResult",
						toolCallId: callId,
						toolName: "read",
						content: [{ type: "text", text: "file" }],
					},
				);
			}
			batch.push({
				recordType: "message",
				role: "assistant",
				provider: "faux",
				model: "faux-1",
				content: [{ type: "text", text: `re: ${step.text}` }],
			});
			await store.append(id, batch);
		} else if (step.kind === "compaction" && last > 0) {
			await store.append(id, [
				{
					recordType: "compaction",
					firstKeptSeq: step.recent ? Math.max(1, last - (step.keepFrom % 6)) : pick(step.keepFrom, last),
					summary: `summary at ${last}`,
					tokensBefore: last,
					readFiles: [],
					modifiedFiles: [],
				},
			]);
		} else if (step.kind === "branch" && last > 0) {
			await store.branch(id, pick(step.at, last));
		} else if (step.kind === "custom") {
			await store.append(id, [{ recordType: "custom", customType: "state", data: { last } }]);
		} else if (step.kind === "corrupt" && last > 0) {
			// Damage one line in place (a flipped byte on disk): readers skip it and bridge over the gap it leaves.
			const log = `${home}/sessions/${id}/session.jsonl`;
			const lines = readFileSync(log, "utf8").split("\n");
			const index = step.at % (lines.length - 1);
			lines[index] = `#${(lines[index] as string).slice(1)}`;
			writeFileSync(log, lines.join("\n"));
		}
	}
	return id;
}

async function readAll(id: string): Promise<StoredRecord[]> {
	const out: StoredRecord[] = [];
	for await (const record of store.read(id)) out.push(record);
	return out;
}

describe("resume reads backwards only as far as the live context needs", () => {
	it("open equals the full forward scan (SessionTree + buildContext) on random trees, compactions, bad lines and leaves", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(op, { minLength: 1, maxLength: 25 }),
				fc.option(position, { nil: undefined }),
				async (ops, leafPick) => {
					const id = await play(ops);
					const metadata = await store.metadata(id);
					const records = await readAll(id);
					const tree = new SessionTree(records);
					const existing = tree.records().map((record) => record.seq);
					const leafSeq =
						leafPick === undefined || existing.length === 0 ? undefined : existing[leafPick % existing.length];
					const activeLeaf = leafSeq ?? tree.activeLeaf(metadata.leafSeq);
					const model = modelDefault(metadata.model);
					const expected =
						activeLeaf === null
							? buildContext([], { systemPrompt: "sys" })
							: buildContext(tree, {
									leafSeq: activeLeaf,
									systemPrompt: "sys",
									defaults: model ? { model } : {},
								});
					const fullPath = activeLeaf === null ? [] : tree.path(activeLeaf);
					const compaction = [...fullPath].reverse().find((record) => record.recordType === "compaction");
					const expectedPath =
						compaction?.recordType === "compaction"
							? fullPath.filter((record) => record.seq >= compaction.firstKeptSeq)
							: fullPath;

					const opened = await store.open(id, leafSeq === undefined ? {} : { leafSeq });
					expect(opened.context).toEqual(expected);
					expect(opened.path).toEqual(expectedPath);
				},
			),
			{ numRuns: 150 },
		);
	});
});
