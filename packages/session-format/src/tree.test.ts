import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parentSeqOf } from "./record-kinds.js";
import type { StoredRecord } from "./records.js";
import { sessionTree } from "./test-arbitraries.js";
import { assistant, label, user } from "./test-builders.js";
import { BRANCHED } from "./test-fixtures.js";
import { SessionTree, walkPath } from "./tree.js";

const seqs = (records: ReadonlyArray<{ seq: number }>) => records.map((record) => record.seq);

describe("the tree rule: parentSeq absent = seq - 1, a number = that seq, null = a root", () => {
	it("parentSeqOf follows the rule", () => {
		expect(parentSeqOf({ seq: 1 })).toBeNull();
		expect(parentSeqOf({ seq: 7 })).toBe(6);
		expect(parentSeqOf({ seq: 7, parentSeq: 3 })).toBe(3);
		expect(parentSeqOf({ seq: 7, parentSeq: null })).toBeNull();
	});

	it("a spec v1 file without parentSeq is one linear branch", () => {
		const tree = new SessionTree([user(1, "a"), assistant(2, "b"), user(3, "c")]);
		expect(seqs(tree.path())).toEqual([1, 2, 3]);
		expect(tree.leaves()).toEqual([3]);
		expect(tree.branchPoints()).toEqual([]);
		expect(tree.roots()).toEqual([1]);
	});
});

describe("SessionTree with several branches and compactions on different branches", () => {
	const tree = new SessionTree(BRANCHED);

	it("the path of each leaf runs root → leaf along parent links", () => {
		expect(seqs(tree.path(9))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
		expect(seqs(tree.path(14))).toEqual([1, 2, 3, 4, 5, 10, 11, 12, 13, 14]);
		// 19..22 are labels: side records stand for their parent (18) and are never on a path.
		expect(seqs(tree.path(22))).toEqual([1, 15, 16, 17, 18]);
		expect(seqs(tree.path(18))).toEqual([1, 15, 16, 17, 18]);
		expect(seqs(tree.path(23))).toEqual([23]);
		expect(seqs(tree.path(4))).toEqual([1, 2, 3, 4]);
	});

	it("the default path is the path of the last record", () => {
		expect(seqs(tree.path())).toEqual([23]);
	});

	it("children lists each record's children in seq order", () => {
		expect(tree.children(1)).toEqual([2, 15]);
		expect(tree.children(5)).toEqual([6, 10]);
		expect(tree.children(9)).toEqual([]);
		expect(tree.parentOf(10)).toBe(5);
		expect(tree.parentOf(23)).toBeNull();
	});

	it("leaves are the records without children; side records (the labels 19..22) are never leaves", () => {
		expect(tree.leaves()).toEqual([9, 14, 18, 23]);
	});

	it("branch points are the records with more than one child", () => {
		expect(tree.branchPoints()).toEqual([1, 5]);
	});

	it("roots are the first record and every parentSeq null", () => {
		expect(tree.roots()).toEqual([1, 23]);
	});

	it("labels: the latest label record for a target wins, an empty label clears it", () => {
		expect([...tree.labels()]).toEqual([[6, "second"]]);
	});

	it("a label without a label field clears it too", () => {
		const labelled = new SessionTree([user(1, "a"), label(2, 1, "x"), label(3, 1, undefined)]);
		expect(labelled.labels().size).toBe(0);
	});

	it("size, lastSeq, get and records describe every record in seq order", () => {
		expect(tree.size).toBe(23);
		expect(tree.lastSeq).toBe(23);
		expect(tree.get(13)?.recordType).toBe("compaction");
		expect(seqs(tree.records())).toEqual(BRANCHED.map((r) => r.seq));
	});

	it("activeLeaf is the last record (resolved through side records), or a legacy leafSeq when it is a record", () => {
		expect(tree.activeLeaf(9)).toBe(9);
		expect(tree.activeLeaf(21)).toBe(18);
		expect(tree.activeLeaf()).toBe(23);
		expect(tree.activeLeaf(null)).toBe(23);
		expect(tree.activeLeaf(99)).toBe(23);
		expect(new SessionTree(BRANCHED.slice(0, 22)).activeLeaf()).toBe(18);
		expect(new SessionTree().activeLeaf()).toBeNull();
	});
});

describe("SessionTree with missing records", () => {
	it("dangling parents: a record whose parent is not in the tree is reported, and its path stops there", () => {
		// seq 3 is missing (a corrupt line skipped): 4's implicit parent dangles; 6 names the missing 2 explicitly.
		const tree = new SessionTree([user(1, "a"), user(4, "d"), assistant(5, "e"), user(6, "f", { parentSeq: 2 })]);
		expect(tree.danglingRecords()).toEqual([
			{ seq: 4, parentSeq: 3 },
			{ seq: 6, parentSeq: 2 },
		]);
		expect(seqs(tree.path(5))).toEqual([4, 5]);
		expect(seqs(tree.path(6))).toEqual([6]);
		expect(walkPath((seq) => tree.get(seq), 5)).toEqual({ path: [tree.get(4), tree.get(5)], missingParent: 3 });
		expect(tree.leaves()).toEqual([1, 5, 6]);
		expect(tree.roots()).toEqual([1]);
	});

	it("records given out of order form the same tree", () => {
		const tree = new SessionTree([user(3, "c"), user(1, "a"), user(2, "b")]);
		expect(seqs(tree.path())).toEqual([1, 2, 3]);
		expect(tree.leaves()).toEqual([3]);
		expect(tree.danglingRecords()).toEqual([]);
	});

	it("walkPath over a partial lookup (a backward read) says which parent it lacks", () => {
		const records = new Map([5, 6, 7].map((seq) => [seq, user(seq, `m${seq}`)]));
		const result = walkPath((seq) => records.get(seq), 7);
		expect(seqs(result.path)).toEqual([5, 6, 7]);
		expect(result.missingParent).toBe(4);
	});

	it("walkPath reaching a root has no missingParent", () => {
		const tree = new SessionTree([user(1, "a"), user(2, "b")]);
		expect(walkPath((seq) => tree.get(seq), 2)).toEqual({ path: [tree.get(1), tree.get(2)] });
	});

	it("a path to a leaf that is not in the tree is empty", () => {
		expect(new SessionTree([user(1, "a")]).path(7)).toEqual([]);
	});

	it("a duplicate seq: the later line wins and no phantom branch appears", () => {
		const tree = new SessionTree([
			user(1, "a"),
			user(2, "first"),
			user(2, "second", { parentSeq: null }),
			user(3, "c"),
		]);
		expect(tree.get(2)).toMatchObject({ content: [{ text: "second" }] });
		expect(tree.children(1)).toEqual([]);
		expect(tree.roots()).toEqual([1, 2]);
		expect(tree.branchPoints()).toEqual([]);
		expect(tree.leaves()).toEqual([1, 3]);
		expect(tree.size).toBe(3);
	});
});

describe("SessionTree and walkPath agree", () => {
	it("the path of every leaf is the same from the tree and from walkPath over the same records, with lines missing", () => {
		fc.assert(
			fc.property(
				sessionTree.chain((records) =>
					fc.record({
						records: fc.constant(records),
						missing: fc.uniqueArray(fc.integer({ min: 1, max: records.length }), { maxLength: 5 }),
					}),
				),
				({ records, missing }) => {
					const tree = new SessionTree(records.filter((record) => !missing.includes(record.seq)));
					for (const leaf of tree.leaves()) {
						const walked = walkPath((seq) => tree.get(seq), leaf);
						expect(seqs(walked.path)).toEqual(seqs(tree.path(leaf)));
						// The walk stops at the first ancestor it cannot find, passing through side records.
						const first = walked.path[0];
						let parent = first ? parentSeqOf(first) : null;
						while (parent !== null && tree.isSide(parent)) parent = parentSeqOf(tree.get(parent) as StoredRecord);
						expect(walked.missingParent).toBe(parent === null ? undefined : parent);
					}
				},
			),
			{ numRuns: 300 },
		);
	});
});
