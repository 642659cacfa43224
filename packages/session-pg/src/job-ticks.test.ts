import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneJobTicks } from "./job-ticks.js";
import { openPgStore, type PgSessionStore } from "./store.js";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "./testing.js";

const server = await findTestPostgres();

describe.skipIf(server === undefined)("pruneJobTicks", () => {
	let database: TestDatabase;
	let store: PgSessionStore;
	beforeAll(async () => {
		database = await createTestDatabase(server as string, "agent_pg_ticks");
		store = await openPgStore({ url: database.url, maxLeases: 1, maxConnections: 2 });
	});
	afterAll(async () => {
		await store?.close();
		await database?.drop();
	});

	it("deletes only the tick claims from before the cutoff, and says how many", async () => {
		const day = 86_400_000;
		const now = Date.parse("2026-05-01T04:00:00.000Z");
		for (const [job, age] of [
			["nightly", 30 * day],
			["nightly", 8 * day],
			["nightly", 6 * day],
			["hourly", 7 * day + 1000],
			["hourly", 7 * day - 1000],
			["hourly", 0],
		] as const) {
			expect(await store.claimJobTick(job, new Date(now - age), "instance-a")).toBe(true);
		}
		expect(await pruneJobTicks(store, new Date(now - 7 * day))).toBe(3);
		const { rows } = await store.pool.query<{ job_id: string; tick: Date }>(
			"SELECT job_id, tick FROM agent_job_ticks ORDER BY tick",
		);
		expect(rows.map((row) => [row.job_id, now - row.tick.getTime()])).toEqual([
			["hourly", 7 * day - 1000],
			["nightly", 6 * day],
			["hourly", 0],
		]);
		expect(await pruneJobTicks(store, new Date(now - 7 * day))).toBe(0);
		// A tick claimed again after its claim was pruned would run twice: only old ticks go, never the current one.
		expect(await store.claimJobTick("hourly", new Date(now), "instance-b")).toBe(false);
	});

	it("refuses a cutoff that is not a date", async () => {
		await expect(pruneJobTicks(store, new Date("nonsense"))).rejects.toThrow(/valid Date/);
	});
});
