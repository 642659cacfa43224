import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { SessionStore } from "@agent/session-format";
import { createFileStore } from "@agent/session-fs";
import { MIGRATIONS, openPgStore, type PgSessionStore } from "@agent/session-pg";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "@agent/session-pg/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const server = await findTestPostgres();
const DAY = 86_400_000;
const children: ChildProcess[] = [];
const homes: string[] = [];

afterEach(async () => {
	for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
	await Promise.all(homes.splice(0).map((home) => fs.rm(home, { recursive: true, force: true })));
});

interface Running {
	child: ChildProcess;
	/** Resolves with the base URL once listening; rejects if the process exits first. */
	url: Promise<string>;
	exited: Promise<number | null>;
	stderr(): string;
	/** Resolves once stderr matches. */
	logged(pattern: RegExp): Promise<string>;
}

/** A real server process (the built bin), its stderr kept. */
function start(home: string, args: string[] = []): Running {
	const child = spawn(process.execPath, [BIN, "--home", home, "--port", "0", ...args], {
		env: { PATH: process.env.PATH, HOME: os.tmpdir() },
		stdio: ["ignore", "pipe", "pipe"],
	});
	children.push(child);
	let stdout = "";
	let stderr = "";
	const waiters = new Set<() => void>();
	child.stderr?.on("data", (chunk) => {
		stderr += chunk;
		for (const check of [...waiters]) check();
	});
	const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
	const url = new Promise<string>((resolve, reject) => {
		child.stdout?.on("data", (chunk) => {
			stdout += chunk;
			const match = /^listening on (http:\/\/\S+)\n/.exec(stdout);
			if (match) resolve(match[1] as string);
		});
		child.on("exit", (code) => reject(new Error(`the server exited (${code}) before listening: ${stderr}`)));
	});
	url.catch(() => {});
	return {
		child,
		url,
		exited,
		stderr: () => stderr,
		logged: (pattern) =>
			new Promise((resolve, reject) => {
				const check = () => {
					if (pattern.test(stderr)) {
						waiters.delete(check);
						resolve(stderr);
					} else if (child.exitCode !== null) {
						waiters.delete(check);
						reject(new Error(`the server exited without logging ${pattern}: ${stderr}`));
					}
				};
				waiters.add(check);
				check();
			}),
	};
}

async function tempHome(config: string): Promise<string> {
	const home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-server-operate-"));
	homes.push(home);
	await fs.writeFile(path.join(home, "config.yaml"), config);
	return home;
}

/** A session archived `days` ago by its log (an archive_change record with that timestamp). */
async function archived(store: SessionStore, name: string, days: number): Promise<string> {
	const { id } = await store.create({ name });
	await store.append(id, [
		{ recordType: "message", role: "user", content: [{ type: "text", text: name }] },
		{ recordType: "archive_change", archived: true, timestamp: new Date(Date.now() - days * DAY).toISOString() },
	]);
	return id;
}

const RETENTION_EVERY_SECOND =
	'default_model: demo\nretention:\n  archived_older_than: 90d\n  schedule: "* * * * * *"\n';

describe("retention on the server's schedule", () => {
	it("file store: deletes the sessions archived longer ago than retention.archived_older_than, logs each, keeps the rest", async () => {
		const home = await tempHome(RETENTION_EVERY_SECOND);
		const store = createFileStore({ home });
		const old = await archived(store, "archived 100 days ago", 100);
		const recent = await archived(store, "archived 10 days ago", 10);
		const live = (await store.create({ name: "live" })).id;
		const running = start(home);
		const url = await running.url;
		await running.logged(
			new RegExp(`retention\\.deleted sessionId=${old} archivedAt=\\S+ name="archived 100 days ago"`),
		);
		await running.logged(/retention\.ran deleted=1 archivedBefore=\S+/);
		expect((await fetch(`${url}/api/sessions/${old}`)).status).toBe(404);
		for (const kept of [recent, live]) expect((await fetch(`${url}/api/sessions/${kept}`)).status).toBe(200);
		expect(running.stderr()).not.toMatch(/jobTicksDeleted/); // the file store keeps no tick claims
	});

	it("refuses to start with a retention.schedule that is not a cron expression", async () => {
		const home = await tempHome("retention:\n  archived_older_than: 90d\n  schedule: every night\n");
		const running = start(home);
		expect(await running.exited).toBe(1);
		expect(running.stderr()).toContain('config.yaml: retention.schedule: "every night" is not a cron expression');
	});
});

describe.skipIf(server === undefined)("on PostgreSQL", () => {
	let database: TestDatabase;
	let store: PgSessionStore;
	beforeAll(async () => {
		database = await createTestDatabase(server as string, "agent_server_operate");
		store = await openPgStore({ url: database.url, maxConnections: 2, maxLeases: 2 });
	});
	afterAll(async () => {
		await store?.close();
		await database?.drop();
	});

	it("two instances: each retention tick runs on one of them; old sessions and old job tick claims go", async () => {
		const home = await tempHome(`${RETENTION_EVERY_SECOND}  job_ticks_older_than: 2d\n`);
		const old = await archived(store, "archived 100 days ago", 100);
		const recent = await archived(store, "archived 10 days ago", 10);
		const now = Date.now();
		for (const days of [30, 3, 1]) await store.claimJobTick("nightly", new Date(now - days * DAY), "gone-instance");
		const instances = [start(home, ["--store", database.url]), start(home, ["--store", database.url])];
		await Promise.all(instances.map((instance) => instance.url));
		await Promise.race(instances.map((instance) => instance.logged(/retention\.deleted sessionId=/)));
		// Wait until three retention ticks were claimed after the deletion.
		for (let tries = 0; tries < 100; tries++) {
			const { rows } = await store.pool.query<{ n: number }>(
				"SELECT count(*)::int AS n FROM agent_job_ticks WHERE job_id = 'agent-sessions/retention'",
			);
			if ((rows[0]?.n ?? 0) >= 4) break;
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		const deletions = instances.map(
			(instance) => instance.stderr().match(/retention\.deleted sessionId=/g)?.length ?? 0,
		);
		expect(deletions.reduce((sum, n) => sum + n, 0)).toBe(1);
		const runs = instances.map((instance) => instance.stderr().match(/retention\.ran /g)?.length ?? 0);
		const { rows: claims } = await store.pool.query<{ tick: Date }>(
			"SELECT tick FROM agent_job_ticks WHERE job_id = 'agent-sessions/retention'",
		);
		// One run per claimed tick, wherever it ran (the last claim's run may still be under way).
		expect(runs.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(claims.length - 1);
		expect(runs.reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(claims.length);
		await expect(store.metadata(old)).rejects.toMatchObject({ code: "SESSION_NOT_FOUND" });
		expect((await store.metadata(recent)).id).toBe(recent);
		const { rows: nightly } = await store.pool.query<{ tick: Date }>(
			"SELECT tick FROM agent_job_ticks WHERE job_id = 'nightly' ORDER BY tick",
		);
		expect(nightly.map((row) => Math.round((now - row.tick.getTime()) / DAY))).toEqual([1]);
	}, 60_000);

	it("--pg-pool-size and --pg-max-leases bound the connections an instance opens (over config.yaml's postgres:)", async () => {
		const home = await tempHome("default_model: demo\npostgres:\n  pool_size: 8\n  max_leases: 8\n");
		const connections = async () =>
			(
				await store.pool.query<{ n: number }>(
					"SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'agent-sessions' AND pid <> pg_backend_pid()",
				)
			).rows[0]?.n ?? 0;
		const before = await connections();
		const running = start(home, ["--store", database.url, "--pg-pool-size", "2", "--pg-max-leases", "3"]);
		const url = await running.url;
		const ids: string[] = [];
		for (let i = 0; i < 12; i++) {
			const response = await fetch(`${url}/api/sessions`, {
				method: "POST",
				body: "{}",
				headers: { "Content-Type": "application/json" },
			});
			ids.push(((await response.json()) as { id: string }).id);
		}
		const sends = await Promise.all(
			ids.map((id) =>
				fetch(`${url}/api/sessions/${id}/messages?wait=1`, {
					method: "POST",
					body: JSON.stringify({ content: "hello" }),
					headers: { "Content-Type": "application/json" },
				}),
			),
		);
		expect(sends.map((response) => response.status)).toEqual(ids.map(() => 200));
		const after = await connections();
		// 12 turns at once through 3 lease connections and 2 for the rest; config.yaml's 8 and 8
		// would have let the turns take 8 lease connections.
		expect(after - before).toBeGreaterThanOrEqual(3);
		expect(after - before).toBeLessThanOrEqual(2 + 3);
		const bad = start(home, ["--store", database.url, "--pg-max-leases", "many"]);
		expect(await bad.exited).toBe(2);
		expect(bad.stderr()).toContain('--pg-max-leases must be a whole number of connections from 1 to 1000, not "many"');
	});

	it("refuses to start against a schema newer than it knows, saying which version to run, at once", async () => {
		const latest = Math.max(...MIGRATIONS.map((step) => step.version));
		await store.pool.query(
			"INSERT INTO agent_schema_migrations (version, name, applied_by) VALUES ($1, 'from the future', '42.0.0')",
			[latest + 1],
		);
		try {
			const running = start(await tempHome("default_model: demo\n"), ["--store", database.url]);
			expect(await running.exited).toBe(1);
			expect(running.stderr()).toContain(
				`the database's schema is newer than this program knows: it is at step ${latest + 1}`,
			);
			expect(running.stderr()).toContain("Run a release built on @agent/session-pg 42.0.0 or later");
		} finally {
			await store.pool.query("DELETE FROM agent_schema_migrations WHERE version > $1", [latest]);
		}
	});
});
