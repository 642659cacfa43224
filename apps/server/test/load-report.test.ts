import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KEPT_MARKER, type LoadFigures, writeLoadReport } from "../load/load-report.js";

const dirs: string[] = [];
afterAll(async () => {
	for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

const figures: LoadFigures = {
	clients: 4,
	messagesPerClient: 2,
	sessions: 2,
	totalMessages: 8,
	wallSeconds: 2,
	latenciesMs: [10, 20, 30, 40, 50, 60, 70, 80],
	errors: 0,
	interleavings: 0,
	eventsPerSession: [4, 4],
	cpuSeconds: 1,
	compactions: 0,
};

describe("the load report", () => {
	it("rewrites its own figures and keeps the sections after the marker (the figures of real server processes)", async () => {
		const dir = await fs.mkdtemp(path.join(os.tmpdir(), "agent-load-report-"));
		dirs.push(dir);
		const file = path.join(dir, "server-load.md");
		const kept = `${KEPT_MARKER}\n\n## Capacity\n\n| store | turns/s |\n| --- | --- |\n| file | 150 |\n`;
		await fs.writeFile(file, `# old title\n\nold figures: 1 messages/s\n\n${kept}`);
		await writeLoadReport(file, figures);
		const text = await fs.readFile(file, "utf8");
		expect(text).toContain("| throughput | 4.0 messages/s |");
		expect(text).not.toContain("old figures");
		expect(text.endsWith(kept)).toBe(true);

		const fresh = path.join(dir, "fresh.md");
		await writeLoadReport(fresh, figures);
		expect((await fs.readFile(fresh, "utf8")).trimEnd().endsWith(KEPT_MARKER)).toBe(true);
	});
});
