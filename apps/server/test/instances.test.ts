import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { openPgStore } from "@agent/session-pg";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "@agent/session-pg/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventClient } from "./support/event-client.js";
import { type Instance, startInstance as start } from "./support/instance.js";

const server = await findTestPostgres();

interface StoredRecord {
	seq: number;
	recordType: string;
	role?: string;
	content?: Array<{ text?: string }>;
}

/** A real server process over the database (its home holds only config.yaml). */
const startInstance = (home: string, store: string) => start(home, ["--store", store]);

async function api(instance: Instance, urlPath: string, json?: unknown): Promise<Response> {
	return fetch(`${instance.url}${urlPath}`, {
		method: json === undefined ? "GET" : "POST",
		...(json === undefined ? {} : { headers: { "Content-Type": "application/json" }, body: JSON.stringify(json) }),
	});
}

async function records(instance: Instance, id: string): Promise<StoredRecord[]> {
	const response = await api(instance, `/api/sessions/${id}/records?limit=1000`);
	expect(response.status).toBe(200);
	return ((await response.json()) as { records: StoredRecord[] }).records;
}

describe.skipIf(server === undefined)("two server instances over one PostgreSQL database", () => {
	let database: TestDatabase;
	let home: string;
	let a: Instance;
	let b: Instance;
	beforeAll(async () => {
		database = await createTestDatabase(server as string, "agent_server_test");
		home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-instances-"));
		await fs.writeFile(
			path.join(home, "config.yaml"),
			'default_model: demo\njobs:\n  - id: every-second\n    schedule: "* * * * * *"\n    prompt: tick\n',
		);
		[a, b] = await Promise.all([startInstance(home, database.url), startInstance(home, database.url)]);
	});
	afterAll(async () => {
		for (const instance of [a, b]) if (instance?.child.exitCode === null) instance.child.kill("SIGKILL");
		await database?.drop();
		await fs.rm(home, { recursive: true, force: true });
	});

	it("a WebSocket client on one instance sees the turn another instance runs", async () => {
		const created = (await (await api(a, "/api/sessions", {})).json()) as { id: string };
		const client = await EventClient.connect(`${b.url.replace(/^http/, "ws")}/api/sessions/${created.id}/events`);
		const response = await api(a, `/api/sessions/${created.id}/messages?wait=1`, { content: "hello from a" });
		expect(response.status).toBe(200);
		const { turnId } = (await response.json()) as { turnId: string };
		await client.waitFor((message) => message.type === "turn.completed" && message.turnId === turnId);
		expect(client.ofType("record.appended").length).toBeGreaterThan(0);
		await client.close();
	});

	it("turns of one session sent to both instances at once never interleave; seqs stay contiguous", async () => {
		const created = (await (await api(a, "/api/sessions", {})).json()) as { id: string };
		const sends: Promise<Response>[] = [];
		for (let i = 0; i < 4; i++) {
			sends.push(api(a, `/api/sessions/${created.id}/messages?wait=1`, { content: `a${i}` }));
			sends.push(api(b, `/api/sessions/${created.id}/messages?wait=1`, { content: `b${i}` }));
		}
		for (const response of await Promise.all(sends)) expect(response.status).toBe(200);
		const every = await records(b, created.id);
		expect(every.map((record) => record.seq)).toEqual(every.map((_, index) => index + 1));
		const all = every.filter((record) => record.recordType === "message");
		// Each turn is its user message and then its reply, never another turn's records in between.
		for (let i = 0; i < all.length; i += 2) {
			expect(all[i]?.role).toBe("user");
			expect(all[i + 1]?.role).toBe("assistant");
			expect(all[i + 1]?.content?.map((block) => block.text ?? "").join("")).toContain(all[i]?.content?.[0]?.text);
		}
		expect(all).toHaveLength(16);
	});

	it("each scheduled job tick runs on one instance only", async () => {
		const store = await openPgStore({ url: database.url, maxConnections: 1 });
		const pool = store.pool;
		try {
			// Wait for a few ticks to have been claimed and run.
			for (let tries = 0; tries < 100; tries++) {
				const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM agent_job_ticks");
				if (Number(rows[0]?.n) >= 3) break;
				await new Promise((resolve) => setTimeout(resolve, 200));
			}
			const ticks = await pool.query<{ tick: Date; instance: string }>("SELECT tick, instance FROM agent_job_ticks");
			expect(ticks.rows.length).toBeGreaterThanOrEqual(3);
			// Both instances scheduled every tick; one row per tick means one run per tick.
			const distinct = new Set(ticks.rows.map((row) => row.tick.getTime()));
			expect(distinct.size).toBe(ticks.rows.length);
			const sessions = await pool.query<{ n: string }>(
				"SELECT count(*) AS n FROM agent_sessions WHERE source = 'cron' AND created->>'cronJobId' = 'every-second'",
			);
			expect(Number(sessions.rows[0]?.n)).toBeLessThanOrEqual(ticks.rows.length);
			expect(Number(sessions.rows[0]?.n)).toBeGreaterThanOrEqual(ticks.rows.length - 2);
		} finally {
			await store.close();
		}
	});

	it("an instance killed with SIGKILL loses no acknowledged record, and the other serves its sessions at once", async () => {
		const created = (await (await api(a, "/api/sessions", {})).json()) as { id: string };
		const acknowledged: StoredRecord[] = [];
		for (let i = 0; i < 3; i++) {
			const response = await api(a, `/api/sessions/${created.id}/messages?wait=1`, { content: `kept ${i}` });
			expect(response.status).toBe(200);
			acknowledged.push(...((await response.json()) as { records: StoredRecord[] }).records);
		}
		// A turn in flight when the instance dies.
		await api(a, `/api/sessions/${created.id}/messages`, { content: "in flight" });
		a.child.kill("SIGKILL");
		await new Promise((resolve) => a.child.once("exit", resolve));
		const after = await records(b, created.id);
		for (const record of acknowledged) expect(after).toContainEqual(record);
		const response = await api(b, `/api/sessions/${created.id}/messages?wait=1`, { content: "on b now" });
		expect(response.status).toBe(200);
	});
});
