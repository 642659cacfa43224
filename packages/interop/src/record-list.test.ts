import { describe, expect, it } from "vitest";
import { LEAF_MARKER_TYPE, RecordList } from "./record-list.js";
import { Warnings } from "./warnings.js";

const note = (customType: string) => ({ recordType: "custom" as const, customType });
const user = { recordType: "message" as const, role: "user" as const, content: [] };

describe("RecordList", () => {
	it("parentSeq is written only when it is not the previous record", () => {
		const list = new RecordList();
		list.add(user, null);
		list.add(user, 1);
		list.add(user, 1);
		list.add(user);
		expect(list.records.map((r) => r.parentSeq)).toEqual([null, undefined, 1, undefined]);
		expect(() => list.add(user, 9)).toThrow(/parent 9 of record 5 is not an earlier record/);
	});

	it("settleLeaf adds a marker under the source's leaf only when the last record is not on its path", () => {
		const list = new RecordList();
		list.add(user, null);
		list.add(user);
		list.add(note("side"), 2);
		list.settleLeaf(2);
		expect(list.lastSeq).toBe(3);
		list.add(user, 1);
		list.settleLeaf(2);
		expect(list.records.at(-1)).toMatchObject({ customType: LEAF_MARKER_TYPE, parentSeq: 2 });
	});

	it("isAncestor follows parents", () => {
		const list = new RecordList();
		list.add(user, null);
		list.add(user);
		list.add(user, 1);
		expect(list.isAncestor(1, 3)).toBe(true);
		expect(list.isAncestor(2, 3)).toBe(false);
		expect(list.isAncestor(3, 3)).toBe(true);
	});

	it("timestamps: ISO kept, other dates normalised, non-dates replaced by the previous one and reported", () => {
		const warnings = new Warnings();
		const list = new RecordList(warnings);
		list.add({ ...user, timestamp: "2025-01-01T00:00:00Z" });
		list.add({ ...user, timestamp: "Wed, 01 Jan 2025 00:00:05 GMT" });
		list.add({ ...user, timestamp: "yesterday-ish" }, undefined, 7);
		list.add(user);
		expect(list.records.map((r) => r.timestamp)).toEqual([
			"2025-01-01T00:00:00Z",
			"2025-01-01T00:00:05.000Z",
			"2025-01-01T00:00:05.000Z",
			"2025-01-01T00:00:05.000Z",
		]);
		expect(warnings.list()).toEqual(["line 7: a timestamp that is not a date; the previous record's time is used"]);
	});
});

describe("Warnings", () => {
	it("says a repeated warning once, with its count and first lines", () => {
		const warnings = new Warnings();
		for (const line of [3, 4, 9, 12, 15, 20, 30]) warnings.add("kept as custom", line);
		warnings.add("once", 2);
		warnings.add("no line");
		expect(warnings.list()).toEqual(["kept as custom (7 times; lines 3, 4, 9, 12, 15, …)", "line 2: once", "no line"]);
	});
});
