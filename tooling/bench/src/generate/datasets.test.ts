import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileStore, sessionPaths } from "@agent/session-fs";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import { readAndParseEveryLine } from "../cases/read-floor.js";
import { listingDataset, sessionDataset } from "./datasets.js";

const root = mkdtempSync(join(tmpdir(), "bench-data-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const quiet = () => {};
const live = { keptBytes: 16 << 10, afterBytes: 48 << 10 };

describe("generated sessions", () => {
	it("hold the same conversation in both formats: pi's context and ours have the same messages", async () => {
		const dataset = await sessionDataset(root, { bytes: 400_000, live }, quiet);
		const ours = await createFileStore({ home: dataset.oursHome }).open(dataset.oursId);
		const pi = SessionManager.open(dataset.piPath).buildSessionContext();
		expect(ours.context.messages[0]?.origin).toBe("compaction_summary");
		expect(pi.messages[0]?.role).toBe("compactionSummary");
		expect(ours.context.messages.slice(1).map((m) => m.role)).toEqual(pi.messages.slice(1).map((m) => m.role));
		const text = (content: unknown) => JSON.stringify(content);
		expect(ours.context.messages.slice(1).map((m) => text(m.content))).toEqual(
			pi.messages.slice(1).map((m) => text((m as { content: unknown }).content)),
		);
		expect(ours.context.compaction?.summary).toBe((pi.messages[0] as { summary?: string }).summary);
	});

	it("put the compaction late: the live path is the same size whatever the file's size", async () => {
		const small = await sessionDataset(root, { bytes: 300_000, live }, quiet);
		const large = await sessionDataset(root, { bytes: 1_200_000, live }, quiet);
		for (const dataset of [small, large]) {
			const compaction = dataset.written.compaction;
			expect(compaction).toBeDefined();
			const liveBytes = dataset.written.bytes - (compaction?.firstKeptOffset ?? 0);
			expect(liveBytes).toBeGreaterThanOrEqual(live.keptBytes + live.afterBytes);
			expect(liveBytes).toBeLessThan(4 * (live.keptBytes + live.afterBytes));
		}
	});

	it("are deterministic and cached by their parameters", async () => {
		const first = await sessionDataset(root, { bytes: 200_000 }, quiet);
		const again = await sessionDataset(root, { bytes: 200_000 }, quiet);
		expect(again).toEqual(first);
		const other = await sessionDataset(mkdtempSync(join(root, "other-")), { bytes: 200_000 }, quiet);
		const records = (home: string, id: string) =>
			readFileSync(sessionPaths(home, id).log, "utf8")
				.split("\n")
				.map((line) => line.replace(/"timestamp":"[^"]*"/, ""));
		expect(records(other.oursHome, other.oursId)).toEqual(records(first.oursHome, first.oursId));
		expect(readAndParseEveryLine(sessionPaths(first.oursHome, first.oursId).log).lines).toBe(first.written.entries);
	});

	it("list alike in both formats", async () => {
		const dataset = await listingDataset(root, 12, 20_000, quiet);
		const ours = await createFileStore({ home: dataset.oursHome }).list();
		const pi = await SessionManager.list("/work/project", dataset.piDir);
		expect(ours.sessions).toHaveLength(12);
		expect(pi).toHaveLength(12);
		expect(dataset.oursBytes / 12).toBeGreaterThan(10_000);
		expect(dataset.oursBytes / 12).toBeLessThan(40_000);
	});
});
