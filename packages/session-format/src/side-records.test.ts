import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildContext, buildContextFromPath } from "./context.js";
import { applyRecord, newMetadata } from "./metadata-derive.js";
import { pathSettingsOf } from "./path-settings.js";
import type { StoredRecord } from "./records.js";
import { sessionContextDefaults } from "./session-defaults.js";
import { sessionTree } from "./test-arbitraries.js";
import { assistant, at, compaction, label, user } from "./test-builders.js";
import { SessionTree } from "./tree.js";

const seqs = (records: ReadonlyArray<{ seq: number }>) => records.map((record) => record.seq);
const base = (seq: number, parentSeq?: number | null) => ({
	schemaVersion: 1,
	seq,
	timestamp: at(seq),
	...(parentSeq === undefined ? {} : { parentSeq }),
});

describe("side records belong to no branch", () => {
	// 1 user, 2 assistant, 3 label(2), 4 rename, 5 leaf_change → 1, 6 user (parent: the line before, a side record),
	// 7 archive, 8 uptime, 9 turn.
	const records: StoredRecord[] = [
		user(1, "a"),
		assistant(2, "b"),
		label(3, 2, "good"),
		{ recordType: "session_info", ...base(4), name: "n" },
		{ recordType: "leaf_change", ...base(5, 1) },
		user(6, "c"),
		{ recordType: "archive_change", ...base(7), archived: true },
		{ recordType: "uptime", ...base(8), seconds: 3 },
		{ recordType: "turn", ...base(9), turnId: "t", outcome: "completed", startedAt: at(6), durationMs: 2000 },
	];
	const tree = new SessionTree(records);

	it("are never leaves, branch points or on a path; a record hanging from one hangs from its parent", () => {
		expect(tree.leaves()).toEqual([2, 6]);
		expect(tree.branchPoints()).toEqual([1]);
		expect(tree.children(1)).toEqual([2, 6]);
		expect(tree.parentOf(6)).toBe(1);
		expect(seqs(tree.path(9))).toEqual([1, 6]);
		expect(seqs(tree.path(4))).toEqual([1, 2]);
		expect(tree.get(7)?.recordType).toBe("archive_change");
		expect(tree.labels().get(2)).toBe("good");
	});

	it("the active leaf is the last record, or the leaf a side record there stands for (a leaf_change: the leaf it moves to)", () => {
		expect(tree.activeLeaf()).toBe(6);
		expect(new SessionTree(records.slice(0, 4)).activeLeaf()).toBe(2);
		expect(new SessionTree(records.slice(0, 5)).activeLeaf()).toBe(1);
		expect(new SessionTree([{ recordType: "session_info", ...base(1), name: "n" }]).activeLeaf()).toBeNull();
		expect(buildContext(records.slice(0, 5)).messages.map((message) => message.seq)).toEqual([1]);
	});

	it("the metadata derived record by record agrees with the tree on the active leaf, and on the rest", () => {
		const metadata = newMetadata("01JA0000000000000000000000", {}, new Date(0));
		for (let n = 1; n <= records.length; n++) {
			applyRecord(metadata, records[n - 1] as StoredRecord);
			const fromTree = new SessionTree(records.slice(0, n)).activeLeaf();
			expect(tree.resolve(metadata.leafSeq ?? metadata.lastSeq)).toBe(fromTree);
		}
		expect(metadata).toMatchObject({
			name: "n",
			archivedAt: at(7),
			uptimeSeconds: 5,
			messageCount: 3,
			lastMessageAt: at(6),
		});
	});

	it("on random trees, every path holds only tree records, and the derived leaf is the tree's", () => {
		fc.assert(
			fc.property(sessionTree, (generated) => {
				const random = new SessionTree(generated);
				const metadata = newMetadata("01JA0000000000000000000000", {}, new Date(0));
				for (const record of generated) applyRecord(metadata, record);
				expect(random.resolve(metadata.leafSeq ?? metadata.lastSeq)).toBe(random.activeLeaf());
				for (const leaf of random.leaves()) {
					for (const record of random.path(leaf)) expect(random.isSide(record.seq)).toBe(false);
				}
			}),
			{ numRuns: 300 },
		);
	});
});

describe("a compaction's pathSettings: a suffix of the path gives the settings of the whole path", () => {
	const path: StoredRecord[] = [
		user(1, "a"),
		{ recordType: "model_change", ...base(2), provider: "p", modelId: "early" },
		{ recordType: "thinking_level_change", ...base(3), thinkingLevel: "high" },
		user(4, "b"),
		{ ...compaction(5, 4, "s"), pathSettings: { model: { provider: "p", modelId: "early" }, thinkingLevel: "high" } },
		user(6, "c"),
	];

	it("the settings set before the compaction reach a resume that reads only from its firstKeptSeq", () => {
		const whole = buildContextFromPath(path);
		const suffix = buildContextFromPath(path.slice(3));
		expect(whole.model).toEqual({ provider: "p", modelId: "early" });
		expect(suffix.model).toEqual(whole.model);
		expect(suffix.thinkingLevel).toBe("high");
		expect(pathSettingsOf(path.slice(3))).toEqual(pathSettingsOf(path));
	});

	it("settings after the compaction win over it; empty pathSettings mean the path set none (defaults apply)", () => {
		const later = [...path, assistant(7, "d", { provider: "p", model: "late" })];
		expect(buildContextFromPath(later.slice(3)).model).toEqual({ provider: "p", modelId: "late" });
		const none = [user(1, "a"), { ...compaction(2, 1, "s"), pathSettings: {} }];
		const defaults = { model: { provider: "d", modelId: "default" } };
		expect(buildContextFromPath(none, { defaults }).model).toEqual(defaults.model);
	});
});

describe("sessionContextDefaults: the context's fallbacks come from the log's first record", () => {
	const metadata = { model: "cached/model", systemPromptOverride: "cached prompt", thinkingLevel: "low" };

	it("the header of seq 1 gives the model and system prompt (the cached metadata does not)", () => {
		const first = { ...user(1, "a"), session: { createdAt: at(0), model: "p/m", systemPromptOverride: "sys" } };
		expect(sessionContextDefaults(first, metadata)).toEqual({
			systemPrompt: "sys",
			defaults: { model: { provider: "p", modelId: "m" } },
		});
	});

	it("a log without a header (written before headers, empty, or its first line unreadable) falls back to metadata.json", () => {
		for (const first of [user(1, "a"), undefined, { ...user(2, "a"), session: { createdAt: at(0) } }]) {
			expect(sessionContextDefaults(first, metadata)).toEqual({
				systemPrompt: "cached prompt",
				defaults: { model: { provider: "cached", modelId: "model" }, thinkingLevel: "low" },
			});
		}
	});
});
