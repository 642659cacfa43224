import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { SessionStore } from "@agent/session-format";
import { createFileStore } from "@agent/session-fs";
import { openPgStore, type PgSessionStore } from "@agent/session-pg";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "@agent/session-pg/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "./config-file.js";
import { parseDuration } from "./duration.js";
import { pruneArchived } from "./retention.js";

const server = await findTestPostgres();
const DAY = 86_400_000;
const NOW = new Date("2026-05-01T12:00:00.000Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();

/**
 * Sessions archived at given times, as the log says: an archive_change record written with that
 * timestamp (an import of an old session writes the same).
 */
async function archivedAt(store: SessionStore, name: string, changes: Array<[boolean, string]>): Promise<string> {
	const { id } = await store.create({ name });
	await store.append(id, [
		{ recordType: "message", role: "user", content: [{ type: "text", text: name }], timestamp: daysAgo(400) },
	]);
	await store.append(
		id,
		changes.map(([archived, timestamp]) => ({ recordType: "archive_change" as const, archived, timestamp })),
	);
	return id;
}

function retentionCases(open: () => Promise<SessionStore>) {
	it("deletes only the sessions archived longer ago than the age (by the log's archive record), and reports each", async () => {
		const store = await open();
		const old = await archivedAt(store, "archived 120 days ago", [[true, daysAgo(120)]]);
		const recent = await archivedAt(store, "archived 30 days ago", [[true, daysAgo(30)]]);
		const rearchived = await archivedAt(store, "archived, unarchived, archived again 10 days ago", [
			[true, daysAgo(200)],
			[false, daysAgo(100)],
			[true, daysAgo(10)],
		]);
		const unarchived = await archivedAt(store, "archived then unarchived", [
			[true, daysAgo(200)],
			[false, daysAgo(150)],
		]);
		const live = (await store.create({ name: "never archived" })).id;

		const dry = await pruneArchived(store, { olderThanMs: 90 * DAY, now: NOW, dryRun: true });
		expect(dry).toMatchObject({ dryRun: true, cutoff: daysAgo(90), failed: [] });
		expect(dry.sessions).toEqual([
			{
				id: old,
				name: "archived 120 days ago",
				archivedAt: daysAgo(120),
				lastMessageAt: expect.any(String),
				messageCount: 1,
			},
		]);
		expect((await store.metadata(old)).id).toBe(old);

		const removed: string[] = [];
		const report = await pruneArchived(store, {
			olderThanMs: 90 * DAY,
			now: NOW,
			remove: async (id) => {
				removed.push(id);
				await store.delete(id);
			},
		});
		expect(report.dryRun).toBe(false);
		expect(report.sessions.map((session) => session.id)).toEqual([old]);
		expect(removed).toEqual([old]);
		await expect(store.metadata(old)).rejects.toMatchObject({ code: "SESSION_NOT_FOUND" });
		for (const kept of [recent, rearchived, unarchived, live]) expect((await store.metadata(kept)).id).toBe(kept);

		// A second run finds nothing; a shorter age takes the next one.
		expect((await pruneArchived(store, { olderThanMs: 90 * DAY, now: NOW })).sessions).toEqual([]);
		const shorter = await pruneArchived(store, { olderThanMs: 20 * DAY, now: NOW });
		expect(shorter.sessions.map((session) => session.id)).toEqual([recent]);
	});

	it("skips a session unarchived after the listing was taken, and one already deleted (by another instance's run)", async () => {
		const store = await open();
		const a = await archivedAt(store, "a", [[true, daysAgo(100)]]);
		const b = await archivedAt(store, "b", [[true, daysAgo(100)]]);
		const c = await archivedAt(store, "c", [[true, daysAgo(100)]]);
		const raced: SessionStore = Object.create(store);
		let first = true;
		// The first metadata read of the run comes after the listing: change the others' state there.
		raced.metadata = async (id: string) => {
			if (first) {
				first = false;
				await store.unarchive(b);
				await store.delete(c);
			}
			return store.metadata(id);
		};
		const report = await pruneArchived(raced, { olderThanMs: 90 * DAY, now: NOW });
		expect(report.sessions.map((session) => session.id)).toEqual([a]);
		expect(report.failed).toEqual([]);
		expect((await store.metadata(b)).archivedAt).toBeUndefined();
	});
}

describe("pruneArchived on the file store", () => {
	const homes: string[] = [];
	afterAll(async () => {
		for (const home of homes) await fs.rm(home, { recursive: true, force: true });
	});
	retentionCases(async () => {
		const home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-retention-"));
		homes.push(home);
		return createFileStore({ home });
	});
});

describe.skipIf(server === undefined)("pruneArchived on PostgreSQL", () => {
	let database: TestDatabase;
	const stores: PgSessionStore[] = [];
	beforeAll(async () => {
		database = await createTestDatabase(server as string, "agent_retention");
	});
	afterAll(async () => {
		for (const store of stores) await store.close();
		await database?.drop();
	});
	retentionCases(async () => {
		const store = await openPgStore({ url: database.url, maxConnections: 2, maxLeases: 2 });
		stores.push(store);
		// Each case starts from an empty table, as each file-store case has a home of its own.
		await store.pool.query("DELETE FROM agent_sessions");
		return store;
	});
});

describe("retention settings", () => {
	it("reads durations as a whole number and a unit, and names the field of a bad one", () => {
		expect(parseDuration("90d", "x")).toBe(90 * DAY);
		expect(parseDuration("12h", "x")).toBe(12 * 3_600_000);
		expect(parseDuration("2w", "x")).toBe(14 * DAY);
		expect(() => parseDuration("9999999w", "x")).toThrow(/must be a whole number/);
		expect(() => parseDuration("90 days", "--archived-older-than")).toThrow(
			/--archived-older-than must be a whole number and a unit .* not "90 days"/,
		);
	});

	it("config.yaml's retention: and postgres: keys, with their defaults", () => {
		const defaults = parseConfig("");
		expect(defaults.retention).toEqual({ jobTicksOlderThanMs: 7 * DAY, schedule: "0 4 * * *" });
		expect(defaults.postgres).toEqual({});
		const set = parseConfig(
			"retention:\n  archived_older_than: 90d\n  job_ticks_older_than: 2d\n  schedule: '30 3 * * *'\npostgres:\n  pool_size: 4\n  max_leases: 12\n",
		);
		expect(set.retention).toEqual({
			archivedOlderThanMs: 90 * DAY,
			jobTicksOlderThanMs: 2 * DAY,
			schedule: "30 3 * * *",
		});
		expect(set.postgres).toEqual({ poolSize: 4, maxLeases: 12 });
		expect(() => parseConfig("retention:\n  archived_older_than: 3 months\n")).toThrow(
			/retention\.archived_older_than: must be a whole number and a unit/,
		);
		expect(() => parseConfig("postgres:\n  max_leases: 0\n")).toThrow(/postgres\.max_leases/);
	});
});
