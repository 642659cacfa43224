import { type MessageRecord, SessionTree, type StoredRecord } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { painter } from "../io/colors.js";
import { renderTree } from "./tree.js";

function message(seq: number, role: "user" | "assistant", text: string, parentSeq?: number | null): MessageRecord {
	const record: MessageRecord = {
		recordType: "message",
		schemaVersion: 1,
		seq,
		timestamp: "2025-02-11T10:00:00Z",
		role,
		content: [{ type: "text", text }],
	};
	if (parentSeq !== undefined) record.parentSeq = parentSeq;
	return record;
}

describe("renderTree", () => {
	it("keeps a linear chain in one column and draws branches with connectors, labels and the active leaf (a side record stands for its leaf)", () => {
		const records: StoredRecord[] = [
			message(1, "user", "hello"),
			message(2, "assistant", "hi"),
			message(3, "user", "try A"),
			message(4, "assistant", "A done"),
			message(5, "user", "try B", 2),
			message(6, "assistant", "B done"),
			{
				recordType: "label",
				schemaVersion: 1,
				seq: 7,
				timestamp: "2025-02-11T10:00:00Z",
				targetSeq: 3,
				label: "plan A",
			},
		];
		const lines = renderTree({ tree: new SessionTree(records), leafSeq: 7, paint: painter(false) });
		expect(lines).toEqual([
			"*#1 user hello",
			"*#2 assistant hi",
			"├─  #3 user try A [plan A]",
			"│   #4 assistant A done",
			"└─ *#5 user try B",
			"   *#6 assistant B done ◀ active",
		]);
	});

	it("shows records whose parent is missing as extra roots instead of hiding them", () => {
		const records: StoredRecord[] = [message(1, "user", "hello"), message(3, "assistant", "orphan", 2)];
		const lines = renderTree({ tree: new SessionTree(records), leafSeq: 3, paint: painter(false) });
		expect(lines.some((line) => line.includes("#3 assistant orphan"))).toBe(true);
	});
});
