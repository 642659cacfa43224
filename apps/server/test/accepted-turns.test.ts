import type { ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "@agent/session-pg/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventClient } from "./support/event-client.js";
import { type Instance, startInstance as start } from "./support/instance.js";

const pgServer = await findTestPostgres();

/** The demo model answers slowly, so that turns are still queued when an instance is killed. */
const startInstance = (home: string, args: string[]) => start(home, args, { AGENT_DEMO_TOKENS_PER_SECOND: "40" });

interface Record {
	seq: number;
	recordType: string;
	role?: string;
	stopReason?: string;
	turnId?: string;
	outcome?: string;
	firstSeq?: number;
	lastSeq?: number;
}

async function post(instance: Instance, urlPath: string, json: unknown): Promise<Response> {
	return fetch(`${instance.url}${urlPath}`, {
		method: "POST",
		headers: { "Content-Type": "application/json" },
		body: JSON.stringify(json),
	});
}

async function records(instance: Instance, id: string): Promise<Record[]> {
	const response = await fetch(`${instance.url}/api/sessions/${id}/records?limit=1000`);
	return ((await response.json()) as { records: Record[] }).records;
}

function killed(child: ChildProcess): Promise<void> {
	return new Promise((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) resolve();
		else child.once("exit", () => resolve());
		child.kill("SIGKILL");
	});
}

/**
 * Five sends acknowledged with 202 (the first one running, the others queued), then SIGKILL: the
 * next turn on the session, by a new instance, records all five before it runs.
 */
async function acceptedThenKilled(home: string, storeArgs: string[]): Promise<void> {
	const first = await startInstance(home, storeArgs);
	let second: Instance | undefined;
	try {
		const created = await post(first, "/api/sessions", {});
		const { id } = (await created.json()) as { id: string };
		const turnIds: string[] = [];
		for (let i = 0; i < 5; i++) {
			const sent = await post(first, `/api/sessions/${id}/messages`, {
				content: `question ${i}: tell me a long story`,
			});
			expect(sent.status).toBe(202);
			turnIds.push(((await sent.json()) as { turnId: string }).turnId);
		}
		// The first turn has written its user message and is streaming its reply when the process dies.
		await expect
			.poll(async () => (await records(first, id)).some((record) => record.role === "user"), { timeout: 10_000 })
			.toBe(true);
		await killed(first.child);

		second = await startInstance(home, storeArgs);
		const next = await post(second, `/api/sessions/${id}/messages?wait=1`, { content: "are you there?" });
		expect(next.status).toBe(200);
		const log = await records(second, id);
		const turns = log.filter((record) => record.recordType === "turn");
		// Every acknowledged turn is in the log, as interrupted, in the order it was sent; then the new one.
		expect(turns.map((turn) => turn.turnId)).toEqual([...turnIds, expect.any(String)]);
		expect(turns.map((turn) => turn.outcome)).toEqual([...turnIds.map(() => "interrupted"), "completed"]);
		// Each with its user message, closed by an aborted reply: never two user messages in a row.
		const messages = log.filter((record) => record.recordType === "message");
		for (let i = 1; i < messages.length; i++) {
			expect([messages[i - 1]?.role, messages[i]?.role]).not.toEqual(["user", "user"]);
		}
		for (const turn of turns.slice(0, 5)) {
			const own = log.filter((record) => record.seq >= (turn.firstSeq ?? 0) && record.seq <= (turn.lastSeq ?? -1));
			expect(own[0]?.role).toBe("user");
			expect(own[own.length - 1]).toMatchObject({ role: "assistant", stopReason: "aborted" });
		}
		const listed = (await (await fetch(`${second.url}/api/sessions/${id}/turns`)).json()) as { turns: Record[] };
		expect(listed.turns.map((turn) => turn.turnId)).toEqual(turns.map((turn) => turn.turnId));
	} finally {
		await killed(first.child);
		if (second) await killed(second.child);
	}
}

describe("accepted means recorded: turns acknowledged (202) and lost to SIGKILL are recorded as interrupted", () => {
	let home: string;
	beforeAll(async () => {
		home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-accepted-"));
		await fs.writeFile(path.join(home, "config.yaml"), "default_model: demo\n");
	});
	afterAll(async () => {
		await fs.rm(home, { recursive: true, force: true });
	});

	it("on the file store", () => acceptedThenKilled(home, []), 60_000);

	describe.skipIf(pgServer === undefined)("on PostgreSQL", () => {
		let database: TestDatabase;
		beforeAll(async () => {
			database = await createTestDatabase(pgServer as string, "agent_accepted_test");
		});
		afterAll(async () => {
			await database?.drop();
		});
		it(
			"by the next instance that takes the session",
			() => acceptedThenKilled(home, ["--store", database.url]),
			60_000,
		);

		it("the other instance, which saw the lost turn start, stops showing it as running once it is recorded", async () => {
			const [a, b] = await Promise.all([
				startInstance(home, ["--store", database.url]),
				startInstance(home, ["--store", database.url]),
			]);
			const events = (instance: Instance, id: string) =>
				EventClient.connect(`${instance.url.replace(/^http/, "ws")}/api/sessions/${id}/events`);
			try {
				const { id } = (await (await post(a, "/api/sessions", {})).json()) as { id: string };
				const onB = await events(b, id);
				const sent = await post(a, `/api/sessions/${id}/messages`, { content: "tell me a long story" });
				const { turnId: lost } = (await sent.json()) as { turnId: string };
				// B hears the turn running on A (the relay), then A dies with it.
				await onB.waitFor((m) => m.type === "turn.delta" && m.turnId === lost);
				await killed(a.child);
				const next = await post(b, `/api/sessions/${id}/messages?wait=1`, { content: "are you there?" });
				expect(next.status).toBe(200);
				await onB.waitFor((m) => m.type === "record.appended" && (m.record as Record).turnId === lost);
				// A page opened on B now: the lost turn is over (recorded as interrupted), not running with a Stop button.
				const late = await events(b, id);
				const again = await post(b, `/api/sessions/${id}/messages?wait=1`, { content: "still there?" });
				expect(again.status).toBe(200);
				const { turnId: last } = (await again.json()) as { turnId: string };
				await late.waitFor((m) => m.type === "turn.completed" && m.turnId === last, 30_000);
				expect(late.messages.filter((m) => m.turnId === lost)).toEqual([]);
				await Promise.all([onB.close(), late.close()]);
			} finally {
				await killed(a.child);
				await killed(b.child);
			}
		}, 60_000);
	});
});
