import { readFileSync, writeFileSync } from "node:fs";
import { buildContext, type RecordInput, SessionTree, type StoredRecord } from "@agent/session-format";
import { sessionContextDefaults } from "@agent/session-format/store-kit";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { tempStore } from "./test-home.js";

type Op =
	| { kind: "turn"; text: string; tool: boolean }
	| { kind: "compaction"; keepFrom: number; recent: boolean }
	| { kind: "branch"; at: number }
	| { kind: "custom" }
	| { kind: "side"; which: number; at: number }
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
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant("side" as const), which: fc.nat({ max: 3 }), at: position }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant("corrupt" as const), at: position }) },
);

/** More runs locally: PROPERTY_RUNS=2000 pnpm vitest run src/resume.property.test.ts */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 150);

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
						isError: false,
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
			// A firstKeptSeq off the active path (or damaged) is refused: that compaction did not happen.
			await store
				.append(id, [
					{
						recordType: "compaction",
						firstKeptSeq: step.recent ? Math.max(1, last - (step.keepFrom % 6)) : pick(step.keepFrom, last),
						summary: `summary at ${last}`,
						tokensBefore: last,
						readFiles: [],
						modifiedFiles: [],
					},
				])
				.catch((error: Error & { code?: string }) => {
					if (error.code !== "INVALID_RECORD") throw error;
				});
		} else if (step.kind === "branch" && last > 0) {
			// A seq that is damaged or a side record is refused: that is a branch that did not happen.
			await store.branch(id, pick(step.at, last)).catch(() => undefined);
		} else if (step.kind === "side") {
			// Side records (names, labels, archive changes, uptime) between turns: never on a path.
			if (step.which === 0) await store.rename(id, `name ${step.at}`);
			else if (step.which === 1 && last > 0) await store.label(id, pick(step.at, last), `label ${step.at}`);
			else if (step.which === 2) await (step.at % 2 === 0 ? store.archive(id) : store.unarchive(id));
			else await store.addUptime(id, step.at % 7);
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

/** What a full forward scan of the log says `open` must return: the tree of every record, the log's own defaults. */
async function expectOpenEqualsForwardScan(id: string, leafPick: number | undefined): Promise<void> {
	const metadata = await store.metadata(id);
	const records = await readAll(id);
	const tree = new SessionTree(records);
	const existing = tree.records().map((record) => record.seq);
	const leafSeq = leafPick === undefined || existing.length === 0 ? undefined : existing[leafPick % existing.length];
	const activeLeaf = leafSeq ?? tree.activeLeaf();
	const session = sessionContextDefaults(tree.get(1), metadata);
	const expected =
		activeLeaf === null ? buildContext([], session) : buildContext(tree, { leafSeq: activeLeaf, ...session });
	const fullPath = activeLeaf === null ? [] : tree.path(activeLeaf);
	const compaction = [...fullPath].reverse().find((record) => record.recordType === "compaction");
	const expectedPath =
		compaction?.recordType === "compaction"
			? fullPath.filter((record) => record.seq >= compaction.firstKeptSeq)
			: fullPath;
	const opened = await store.open(id, leafSeq === undefined ? {} : { leafSeq });
	expect(opened.context).toEqual(expected);
	expect(opened.path).toEqual(expectedPath);
}

describe("resume reads backwards only as far as the live context needs", () => {
	it("open equals the full forward scan when the first records are damaged (the counterexample of seed -493231381)", async () => {
		// A turn, then its assistant message and its first line (carrying the session header) damaged
		// in place: the cached metadata still names the model the damaged lines set.
		const ops: Op[] = [
			{ kind: "turn", text: "", tool: false },
			{ kind: "corrupt", at: 21 },
			{ kind: "corrupt", at: 0 },
		];
		await expectOpenEqualsForwardScan(await play(ops), undefined);
	});

	it("open equals the full forward scan when the leaf a leaf_change moved to was damaged since (seed 1016603864)", async () => {
		const ops: Op[] = [
			{ kind: "turn", text: "", tool: false },
			{ kind: "branch", at: 0 },
			{ kind: "corrupt", at: 0 },
			{ kind: "compaction", keepFrom: 0, recent: false },
		];
		const id = await play(ops);
		await expectOpenEqualsForwardScan(id, undefined);
		expect((await store.open(id)).context.messages).toEqual([]);
	});

	it("open equals the full forward scan when a compaction keeps records after a model was set before it", async () => {
		const { id } = await store.create({ model: "faux/creation" });
		await store.append(id, [
			{ recordType: "model_change", provider: "faux", modelId: "switched" },
			{ recordType: "message", role: "user", content: [{ type: "text", text: "a" }] },
			{ recordType: "custom", customType: "state", data: 1 },
		]);
		await store.append(id, [
			{ recordType: "compaction", firstKeptSeq: 3, summary: "s", tokensBefore: 1, readFiles: [], modifiedFiles: [] },
		]);
		await expectOpenEqualsForwardScan(id, undefined);
		expect((await store.open(id)).context.model).toEqual({ provider: "faux", modelId: "switched" });
	});

	it(
		"open equals the full forward scan (SessionTree + buildContext) on random trees, compactions, bad lines and leaves",
		async () => {
			await fc.assert(
				fc.asyncProperty(
					fc.array(op, { minLength: 1, maxLength: 25 }),
					fc.option(position, { nil: undefined }),
					async (ops, leafPick) => expectOpenEqualsForwardScan(await play(ops), leafPick),
				),
				{ numRuns: RUNS },
			);
		},
		Math.max(60_000, RUNS * 400),
	);
});
