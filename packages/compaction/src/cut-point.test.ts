import { buildContextFromPath, type StoredRecord } from "@agent/session-format";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findCutPoint, validCutPoints } from "./cut-point.js";
import { applySteps, stepsArb } from "./test-arbitraries.js";
import { PathBuilder, words } from "./test-fixtures.js";

/** The context a compaction cutting at `seq` leaves, with a stand-in summary. */
function contextAfterCut(path: readonly StoredRecord[], firstKeptSeq: number) {
	const last = path[path.length - 1] as StoredRecord;
	const compaction: StoredRecord = {
		recordType: "compaction",
		schemaVersion: 1,
		seq: last.seq + 1,
		timestamp: last.timestamp,
		firstKeptSeq,
		summary: "S",
		tokensBefore: 0,
		readFiles: [],
		modifiedFiles: [],
	};
	return buildContextFromPath([...path, compaction]);
}

describe("findCutPoint (spec §7.5.3)", () => {
	it("keeps at least keepRecentTokens, cutting at the nearest valid point at or after the boundary", () => {
		const b = new PathBuilder();
		b.user(words(100));
		b.assistant(words(100));
		const second = b.user(words(100));
		b.assistant(words(100));
		const cut = findCutPoint(b.records, 150);
		expect(cut).toMatchObject({ seq: second.seq, isSplitTurn: false, turnStartIndex: -1, keptTokens: 200 });
	});

	it("S7.13: never cuts between a tool call and its result", () => {
		const b = new PathBuilder();
		b.user(words(10));
		const call = b.call("bash", { command: "ls" });
		const assistant = b.assistant([call]);
		const result = b.result(call, words(500));
		b.assistant(words(10));
		// The boundary falls on the tool result: the cut moves to the next valid point after it.
		const cut = findCutPoint(b.records, 505);
		expect(cut?.seq).not.toBe(result.seq);
		expect(cut?.seq).toBe(assistant.seq + 2);
		expect(validCutPoints(b.records)).toEqual([true, true, false, true]);
	});

	it("keeps a tool call with its result when the result is the newest record", () => {
		const b = new PathBuilder();
		b.user(words(10));
		const call = b.call("read", { path: "big.txt" });
		const assistant = b.assistant([call]);
		b.result(call, words(5000));
		const cut = findCutPoint(b.records, 100);
		expect(cut).toMatchObject({ seq: assistant.seq, isSplitTurn: true, turnStartIndex: 0 });
	});

	it("does not cut where a parallel tool call still waits for its result, even at a user message", () => {
		const b = new PathBuilder();
		b.user("go");
		const first = b.call("read", { path: "a" });
		const second = b.call("read", { path: "b" });
		b.assistant([first, second]);
		b.result(first, "A");
		const steer = b.user("also check c");
		b.result(second, "B");
		expect(validCutPoints(b.records)[b.records.indexOf(steer)]).toBe(false);
	});

	it("detects a split turn and where its turn started", () => {
		const b = new PathBuilder();
		b.user(words(10));
		b.assistant(words(10));
		const turnStart = b.user(words(10));
		b.toolTurn("bash", { command: "make" }, words(300));
		const later = b.assistant(words(300));
		const cut = findCutPoint(b.records, 250);
		expect(cut).toMatchObject({ seq: later.seq, isSplitTurn: true, turnStartIndex: b.records.indexOf(turnStart) });
	});

	it("keeps everything when the path holds less than keepRecentTokens", () => {
		const b = new PathBuilder();
		b.user(words(10));
		b.assistant(words(10));
		expect(findCutPoint(b.records, 20_000)).toMatchObject({ index: 0, isSplitTurn: false });
	});

	it("is undefined when no record can start the kept part", () => {
		const b = new PathBuilder();
		b.append({ recordType: "model_change", provider: "p", modelId: "m" });
		expect(findCutPoint(b.records, 10)).toBeUndefined();
		expect(findCutPoint([], 10)).toBeUndefined();
	});
});

describe("cut point properties", () => {
	it("a cut point is never a tool result, and the context after it never holds a tool result without its call", () => {
		fc.assert(
			fc.property(stepsArb, fc.integer({ min: 0, max: 3000 }), (steps, keep) => {
				const b = new PathBuilder();
				applySteps(b, steps);
				const cut = findCutPoint(b.records, keep);
				if (!cut) return;
				const record = b.records[cut.index] as StoredRecord;
				expect(record.recordType === "message" && record.role === "toolResult").toBe(false);
				const context = contextAfterCut(b.records, cut.seq);
				expect(context.droppedToolResults).toBe(0);
				const calls = new Set<string>();
				for (const message of context.messages) {
					if (message.role === "toolResult") expect(calls.has(message.toolCallId ?? "")).toBe(true);
					for (const block of message.content) if (block.type === "toolCall") calls.add(block.id);
				}
			}),
			{ numRuns: 300 },
		);
	});

	it("a point is valid exactly when it is a boundary record and cutting there orphans no tool result", () => {
		const boundaryTypes = new Set(["custom_message", "branch_summary", "compaction"]);
		fc.assert(
			fc.property(stepsArb, (steps) => {
				const b = new PathBuilder();
				applySteps(b, steps);
				const valid = validCutPoints(b.records);
				b.records.forEach((record, i) => {
					const boundary =
						(record.recordType === "message" && record.role !== "toolResult") || boundaryTypes.has(record.recordType);
					const orphans = contextAfterCut(b.records, record.seq).droppedToolResults;
					expect(valid[i]).toBe(boundary && orphans === 0);
				});
			}),
			{ numRuns: 200 },
		);
	});
});
