import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import { type RecordInput, recordLine, validateRecordInput } from "@agent/session-format";
import { afterEach, describe, expect, it } from "vitest";
import { tempStore } from "./test-home.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The pid of a process that has exited. */
function deadPid(): number {
	const child = spawnSync(process.execPath, ["-e", ""]);
	return child.pid ?? 0;
}

describe("metadata temp files of writers that died", () => {
	it("the next lease holder removes a temp file whose writer was killed before its rename, and keeps a live writer's", async () => {
		const handle = tempStore();
		cleanups.push(handle.cleanup);
		const { store } = handle;
		const { id } = await store.create();
		const metadata = store.pathsOf(id).metadata;
		const dead = `${metadata}.${deadPid()}.1.tmp`;
		const live = `${metadata}.${process.ppid}.1.tmp`;
		// The dead writer's append reached the log; its metadata write got as far as the temp file.
		const input: RecordInput = { recordType: "message", role: "user", content: [{ type: "text", text: "hi" }] };
		appendFileSync(
			store.pathsOf(id).log,
			recordLine(validateRecordInput(input, { seq: 1, timestamp: new Date().toISOString() })),
		);
		writeFileSync(dead, '{"id":');
		writeFileSync(live, '{"id":');
		await store.append(id, [input]);
		expect(existsSync(dead)).toBe(false);
		expect(existsSync(live)).toBe(true);
		expect((await store.metadata(id)).lastSeq).toBe(2);
	});
});
