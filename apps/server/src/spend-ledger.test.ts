import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { RecordInput } from "@agent/session-format";
import { createFileStore } from "@agent/session-fs";
import { afterAll, describe, expect, it } from "vitest";
import { SpendLedger } from "./spend-ledger.js";

const homes: string[] = [];
afterAll(() => Promise.all(homes.map((home) => fs.rm(home, { recursive: true, force: true }))));

function reply(cost: number): RecordInput {
	return {
		recordType: "message",
		role: "assistant",
		content: [{ type: "text", text: "answer" }],
		provider: "p",
		model: "m",
		usage: {
			input: 1,
			output: 1,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 2,
			cost: { input: 0, output: cost, cacheRead: 0, cacheWrite: 0, total: cost },
		},
		stopReason: "stop",
	};
}

describe("SpendLedger", () => {
	it("adds up today's assistant costs in the user's sessions only; reads on from where it was; starts again each UTC day", async () => {
		const home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-spend-"));
		homes.push(home);
		const store = createFileStore({ home });
		let now = Date.now();
		const ledger = new SpendLedger(store, () => now);
		const mine = await store.create({ createdBy: "ana" });
		const other = await store.create({ createdBy: "bo" });
		await store.append(mine.id, [reply(0.5), reply(0.25)]);
		await store.append(other.id, [reply(9)]);
		expect(await ledger.spentToday("ana")).toBe(0.75);
		await store.append(mine.id, [reply(1)]);
		const second = await store.create({ createdBy: "ana" });
		await store.append(second.id, [reply(0.125)]);
		expect(await ledger.spentToday("ana")).toBe(1.875);
		await expect(ledger.check("ana", 2)).resolves.toBeUndefined();
		await expect(ledger.check("ana", 1.5)).rejects.toMatchObject({ status: 429, code: "SPEND_LIMIT_REACHED" });
		// Tomorrow: what was written today no longer counts.
		now += 86_400_000;
		expect(await ledger.spentToday("ana")).toBe(0);
		expect(await ledger.spentToday("nobody")).toBe(0);
	});

	it("in a long session, counts only the records written today, found by reading back from the end", async () => {
		const home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-spend-"));
		homes.push(home);
		const store = createFileStore({ home });
		const { id } = await store.create({ createdBy: "ana" });
		const now = Date.now();
		const today = Math.floor(now / 86_400_000) * 86_400_000;
		const yesterday = new Date(today - 3_600_000).toISOString();
		// 300 replies of yesterday evening, then 200 of today: only today's 200 count.
		for (let i = 0; i < 6; i++) {
			await store.append(
				id,
				Array.from({ length: 50 }, () => ({ ...reply(1), timestamp: yesterday }) as RecordInput),
			);
		}
		for (let i = 0; i < 4; i++)
			await store.append(
				id,
				Array.from({ length: 50 }, () => reply(0.01)),
			);
		const ledger = new SpendLedger(store, () => now);
		expect(await ledger.spentToday("ana")).toBeCloseTo(2, 10);
	});
});
