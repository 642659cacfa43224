import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import type { StoredRecord } from "@agent/session-format";
import { afterEach, describe, expect, it } from "vitest";
import { tempStore } from "./test-home.js";

const DIST = new URL("../dist/index.js", import.meta.url).href;
const STALE_MS = 2000;

/** A holder that takes the lease, then either blocks its event loop or appends in a loop that never waits for I/O. */
const HOLDER = `
import { createFileStore } from ${JSON.stringify(DIST)};
const [home, id, mode, ms] = process.argv.slice(1);
const store = createFileStore({ home, staleLeaseMs: ${STALE_MS} });
const lease = await store.lease(id);
const record = (text) => ({ recordType: "message", role: "user", content: [{ type: "text", text }] });
console.log("held");
const until = Date.now() + Number(ms);
if (mode === "block") {
	while (Date.now() < until) {}
	try {
		await lease.append([record("late")]);
		console.log("late-append written");
	} catch (error) {
		console.log("late-append", error.code);
	}
} else {
	let n = 0;
	while (Date.now() < until) await lease.append([record("busy " + n++)]);
	console.log("busy-done", n);
}
await lease.release();
console.log("released");
`;

const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
	for (const child of children.splice(0)) child.kill("SIGKILL");
	for (const cleanup of cleanups.splice(0)) await cleanup();
});

function startHolder(home: string, id: string, mode: "block" | "busy", ms: number) {
	const child = spawn(process.execPath, ["--input-type=module", "-e", HOLDER, home, id, mode, String(ms)], {
		stdio: ["ignore", "pipe", "inherit"],
	});
	children.push(child);
	const lines: string[] = [];
	const waiters: Array<() => void> = [];
	createInterface({ input: child.stdout! }).on("line", (line) => {
		lines.push(line);
		for (const wake of waiters.splice(0)) wake();
	});
	const waitFor = async (prefix: string): Promise<string> => {
		for (;;) {
			const found = lines.find((line) => line.startsWith(prefix));
			if (found !== undefined) return found;
			await new Promise<void>((resolve) => waiters.push(resolve));
		}
	};
	return { lines, waitFor };
}

const textOf = (record: StoredRecord) =>
	record.recordType === "message" && record.content[0]?.type === "text" ? record.content[0].text : "";

describe("the lease of a holder that went silent", () => {
	it("a holder whose event loop was blocked past the stale timeout has its late append refused, and its release leaves the new holder's lock alone", async () => {
		const { store, home, cleanup } = tempStore({ staleLeaseMs: STALE_MS, waitMs: 20_000 });
		cleanups.push(cleanup);
		const { id } = await store.create();
		const holder = startHolder(home, id, "block", STALE_MS * 2.5);
		await holder.waitFor("held");
		const lease = await store.lease(id, { waitMs: STALE_MS * 4 });
		await lease.append([{ recordType: "message", role: "user", content: [{ type: "text", text: "new holder 1" }] }]);
		expect(await holder.waitFor("late-append")).toBe("late-append SESSION_LOCKED");
		await holder.waitFor("released");
		expect(existsSync(store.pathsOf(id).lockDir)).toBe(true);
		await lease.append([{ recordType: "message", role: "user", content: [{ type: "text", text: "new holder 2" }] }]);
		await lease.release();
		const records: StoredRecord[] = [];
		for await (const record of store.read(id)) records.push(record);
		expect(records.map((record) => record.seq)).toEqual([1, 2]);
		expect(records.map(textOf)).toEqual(["new holder 1", "new holder 2"]);
	}, 30_000);

	it("a holder appending in a loop that never waits for I/O, for longer than the stale timeout, is not robbed", async () => {
		const { store, home, cleanup } = tempStore({ staleLeaseMs: STALE_MS });
		cleanups.push(cleanup);
		const { id } = await store.create();
		const holder = startHolder(home, id, "busy", STALE_MS * 2.5);
		await holder.waitFor("held");
		const refusals: string[] = [];
		while (!holder.lines.some((line) => line.startsWith("busy-done"))) {
			try {
				await store.append(id, [{ recordType: "message", role: "user", content: [{ type: "text", text: "thief" }] }], {
					waitMs: 200,
				});
			} catch (error) {
				refusals.push((error as { code?: string }).code ?? "?");
			}
		}
		await holder.waitFor("released");
		let lastBusy = 0;
		let firstThief = Number.POSITIVE_INFINITY;
		let expected = 1;
		for await (const record of store.read(id)) {
			expect(record.seq).toBe(expected++);
			if (textOf(record).startsWith("busy")) lastBusy = record.seq;
			else if (record.seq < firstThief) firstThief = record.seq;
		}
		expect(refusals.length).toBeGreaterThan(0);
		expect(new Set(refusals)).toEqual(new Set(["SESSION_LOCKED"]));
		expect(firstThief).toBeGreaterThan(lastBusy);
	}, 30_000);
});
