import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { AgentSessions } from "@agent/session";
import type { StoredRecord, TurnRecord } from "@agent/session-format";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "@agent/session-pg/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventClient } from "./support/event-client.js";
import { type LoggedProcess, startLogged } from "./support/logged-process.js";

const pgServer = await findTestPostgres();

const SESSIONS = 6;
/** Per session: a ?wait=1 send that runs, QUEUED sends answered 202 behind it, then a ?wait=1 send last in line. */
const QUEUED = 8;
/**
 * At 20 tokens a second a demo reply (some 75 tokens) takes about 4 s: the first turn of each
 * session runs through the SIGTERM and ends inside the 6 s grace; the eight behind it cannot.
 */
const DEMO_SPEED = "20";
const GRACE_SECONDS = "6";

interface Send {
	sessionId: string;
	text: string;
	kind: "wait" | "accepted" | "late";
	status?: number;
	code?: string;
	turnId?: string;
	/** Epoch ms the answer came. */
	at?: number;
	failure?: string;
}

async function post(url: string, send: Send): Promise<void> {
	try {
		const response = await fetch(
			`${url}/api/sessions/${send.sessionId}/messages${send.kind === "wait" ? "?wait=1" : ""}`,
			{
				method: "POST",
				headers: { "Content-Type": "application/json" },
				body: JSON.stringify({ content: send.text }),
			},
		);
		const body = (await response.json()) as { turnId?: string; error?: { code: string } };
		send.status = response.status;
		send.at = Date.now();
		if (body.turnId) send.turnId = body.turnId;
		if (body.error) send.code = body.error.code;
	} catch (error) {
		send.failure = String((error as Error).cause ?? error);
	}
}

function textOf(record: StoredRecord): string {
	return record.recordType === "message"
		? record.content.map((block) => (block.type === "text" ? block.text : "")).join("")
		: "";
}

/**
 * Many clients on one server (six sessions, each with a ?wait=1 turn running, eight turns
 * acknowledged with 202 behind it, and a ?wait=1 turn last), then SIGTERM, then requests while
 * it drains. Counted against the session logs and the server's own log lines: every acknowledged
 * turn is in the log exactly once (completed or interrupted), every refused one not at all, every
 * client got a whole answer (no reset, no empty reply), and nothing is left for later.
 */
async function sigtermUnderLoad(home: string, storeArgs: string[], storeUrl?: string): Promise<void> {
	const server: LoggedProcess = startLogged(["--home", home, ...storeArgs, "--shutdown-grace", GRACE_SECONDS], {
		AGENT_DEMO_TOKENS_PER_SECOND: DEMO_SPEED,
	});
	try {
		const url = await server.listening;
		const feed = await EventClient.connect(`${url.replace(/^http/, "ws")}/api/events`);
		const sends: Send[] = [];
		const inFlight: Promise<void>[] = [];
		const sessionIds: string[] = [];
		for (let s = 0; s < SESSIONS; s++) {
			const created = await fetch(`${url}/api/sessions`, {
				method: "POST",
				headers: { "Content-Type": "application/json" },
				body: "{}",
			});
			sessionIds.push(((await created.json()) as { id: string }).id);
		}
		await Promise.all(
			sessionIds.map(async (sessionId, s) => {
				const first: Send = { sessionId, text: `s${s} first`, kind: "wait" };
				sends.push(first);
				inFlight.push(post(url, first));
				await feed.waitFor((event) => event.type === "turn.started" && event.sessionId === sessionId);
				for (let q = 0; q < QUEUED; q++) {
					const queued: Send = { sessionId, text: `s${s} queued ${q}`, kind: "accepted" };
					sends.push(queued);
					await post(url, queued);
					expect(queued.status).toBe(202);
				}
				const last: Send = { sessionId, text: `s${s} last`, kind: "wait" };
				sends.push(last);
				inFlight.push(post(url, last));
			}),
		);
		const total = SESSIONS * (QUEUED + 2);
		await feed.waitFor(() => feed.ofType("turn.queued").length >= total, 30_000);

		const signalled = Date.now();
		server.child.kill("SIGTERM");
		await server.line((line) => line.event === "shutdown.draining");
		// New requests while it drains: answered (503), never refused at the door.
		for (let s = 0; s < SESSIONS; s++) {
			const late: Send = { sessionId: sessionIds[s] as string, text: `s${s} late`, kind: "late" };
			sends.push(late);
			inFlight.push(post(url, late));
		}
		await Promise.all(inFlight);
		expect(await server.exited).toBe(0);
		await feed.close().catch(() => undefined);

		// Every client got a whole answer.
		expect(sends.filter((send) => send.failure !== undefined)).toEqual([]);
		for (const send of sends.filter((candidate) => candidate.kind === "late")) {
			expect([send.status, send.code]).toEqual([503, "SHUTTING_DOWN"]);
		}
		const firsts = sends.filter((send) => send.text.endsWith("first"));
		const lasts = sends.filter((send) => send.text.endsWith("last"));
		for (const send of firsts) expect(send.status).toBe(200);
		for (const send of lasts) expect([send.status, send.code]).toEqual([503, "TURN_INTERRUPTED"]);
		// Responses owed during the grace period were written: turns that ended after the signal.
		expect(firsts.filter((send) => (send.at ?? 0) > signalled).length).toBeGreaterThan(0);

		// Against the session logs: each acknowledged send once, each refused one never, nothing left in the journal.
		const runtime = await AgentSessions.open({ home, ...(storeUrl ? { storeUrl } : {}) });
		const turnLines = server.lines.filter((line) => line.event === "turn");
		let recordedTurns = 0;
		for (const sessionId of sessionIds) {
			const records: StoredRecord[] = [];
			for await (const record of runtime.store.read(sessionId)) records.push(record);
			const asked = records.filter((record) => record.recordType === "message" && record.role === "user").map(textOf);
			const acknowledged = sends
				.filter((send) => send.sessionId === sessionId && send.kind !== "late")
				.map((send) => send.text);
			expect(asked).toEqual(acknowledged);
			const turns = records.filter((record): record is TurnRecord & StoredRecord => record.recordType === "turn");
			expect(turns).toHaveLength(acknowledged.length);
			expect(new Set(turns.map((turn) => turn.turnId)).size).toBe(turns.length);
			expect(turns[0]?.outcome).toBe("completed");
			expect(turns.at(-1)?.outcome).toBe("interrupted");
			for (const turn of turns) expect(["completed", "interrupted"]).toContain(turn.outcome);
			for (const send of sends.filter((candidate) => candidate.sessionId === sessionId && candidate.turnId)) {
				expect(turns.filter((turn) => turn.turnId === send.turnId)).toHaveLength(1);
			}
			// The server's log says the same of each turn, once.
			for (const turn of turns) {
				expect(turnLines.filter((line) => line.turnId === turn.turnId).map((line) => line.outcome)).toEqual([
					turn.outcome,
				]);
			}
			expect(await runtime.store.acceptedTurns?.(sessionId)).toEqual([]);
			const [report] = await runtime.store.verify(sessionId);
			expect(report?.ok).toBe(true);
			recordedTurns += turns.length;
		}
		await (runtime.store as { close?: () => Promise<void> }).close?.();
		expect(recordedTurns).toBe(total);
		expect(turnLines).toHaveLength(total);
		const postLines = server.lines.filter(
			(line) => line.event === "request" && line.method === "POST" && line.route === "/api/sessions/:id/messages",
		);
		expect(postLines).toHaveLength(total + SESSIONS);
	} finally {
		if (server.child.exitCode === null) server.child.kill("SIGKILL");
	}
}

describe("a SIGTERM under load loses and duplicates nothing (real processes, counted against the log)", () => {
	let home: string;
	beforeAll(async () => {
		home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-sigterm-"));
		await fs.writeFile(path.join(home, "config.yaml"), "default_model: demo\n");
	});
	afterAll(async () => {
		await fs.rm(home, { recursive: true, force: true });
	});

	it("on the file store", () => sigtermUnderLoad(home, []), 120_000);

	describe.skipIf(pgServer === undefined)("on PostgreSQL", () => {
		let database: TestDatabase;
		let pgHome: string;
		beforeAll(async () => {
			database = await createTestDatabase(pgServer as string, "agent_sigterm_test");
			pgHome = await fs.mkdtemp(path.join(os.tmpdir(), "agent-sigterm-pg-"));
			await fs.writeFile(path.join(pgHome, "config.yaml"), "default_model: demo\n");
		});
		afterAll(async () => {
			await database?.drop();
			await fs.rm(pgHome, { recursive: true, force: true });
		});

		it("on PostgreSQL", () => sigtermUnderLoad(pgHome, ["--store", database.url], database.url), 120_000);
	});
});
