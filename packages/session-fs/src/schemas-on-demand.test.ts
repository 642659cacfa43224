import { spawnSync } from "node:child_process";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RecordInput, StoredRecord } from "@agent/session-format";
import { afterEach, describe, expect, it } from "vitest";
import { tempStore } from "./test-home.js";

const CHILD = fileURLToPath(new URL("../test/child-reader.mjs", import.meta.url));

/** What a fresh process (the record schemas not loaded) opens, reads and lists; see test/child-reader.mjs. */
function readInFreshProcess(home: string, id: string) {
	const child = spawnSync(process.execPath, [CHILD, JSON.stringify({ home, id })], { encoding: "utf8" });
	expect(child.status, child.stderr).toBe(0);
	return JSON.parse(child.stdout);
}

const user = (text: string): RecordInput => ({
	recordType: "message",
	role: "user",
	content: [{ type: "text", text }],
});
const reply = (text: string): RecordInput => ({
	recordType: "message",
	role: "assistant",
	content: [{ type: "text", text }],
});

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => cleanup?.());

/**
 * Reading loads zod only for a line the hand check cannot decide (a label, a custom message, a
 * metadata.json written by other code). The paths that then load it — a backward walk that
 * starts over, a forward read that waits for it, a listing that looks at a refused file again —
 * give what a process that had the schemas from the start gives.
 */
describe("records and metadata that need the schemas, read by a process that has not loaded them", () => {
	it("open, read and list answer as in a process that had them, each damaged line reported once", async () => {
		const made = tempStore();
		cleanup = made.cleanup;
		const { store, home } = made;
		const { id } = await store.create({ name: "kept" });
		await store.append(id, [user("first"), reply("one")]);
		await store.append(id, [{ recordType: "label", targetSeq: 2, label: "here" }]);
		// A damaged line after the label: walking back from the end meets it before the label.
		appendFileSync(join(home, "sessions", id, "session.jsonl"), "{damaged\n");
		await store.append(id, [
			{ recordType: "custom_message", customType: "note", content: [{ type: "text", text: "aside" }], display: true },
			user("second"),
			reply("two"),
		]);
		// Another session whose metadata.json leaves out what has defaults: valid, but only the schema says so.
		const other = await store.create({ name: "sparse" });
		const sparse = join(home, "sessions", other.id, "metadata.json");
		writeFileSync(
			sparse,
			JSON.stringify({ id: other.id, createdAt: other.createdAt, lastMessageAt: other.lastMessageAt, name: "sparse" }),
		);

		const expectedOpenProblems: unknown[] = [];
		const opened = await store.open(id, { onProblem: (problem) => expectedOpenProblems.push(problem) });
		const expectedRecords: StoredRecord[] = [];
		for await (const record of store.read(id)) expectedRecords.push(record);
		const fresh = readInFreshProcess(home, id);

		// The walk met the label with the schemas unloaded: it loaded them (and walked again).
		expect(fresh.before).toBe(false);
		expect(fresh.afterOpen).toBe(true);
		expect(fresh.path).toEqual(JSON.parse(JSON.stringify(opened.path)));
		expect(fresh.context).toEqual(JSON.parse(JSON.stringify(opened.context)));
		expect(fresh.records).toEqual(JSON.parse(JSON.stringify(expectedRecords)));
		expect(fresh.records.map((record: StoredRecord) => record.recordType)).toEqual([
			"message",
			"message",
			"label",
			"custom_message",
			"message",
			"message",
		]);
		expect(fresh.openProblems).toEqual(JSON.parse(JSON.stringify(expectedOpenProblems)));
		expect(fresh.openProblems).toHaveLength(1);
		expect(fresh.readProblems).toHaveLength(1);
		expect(fresh.readProblems[0]).toMatchObject({ code: "INVALID_JSON", line: 4 });
		const listed = fresh.listed.map((session: { id: string; name?: string; model: string }) => [
			session.id,
			session.name,
		]);
		expect(listed).toEqual(
			expect.arrayContaining([
				[id, "kept"],
				[other.id, "sparse"],
			]),
		);
		expect(fresh.listed.find((session: { id: string }) => session.id === other.id)).toMatchObject({
			messageCount: 0,
			source: "interactive",
		});
	});
});
