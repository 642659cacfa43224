import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { AgentSessions, type SessionEvent } from "@agent/session";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server.js";
import { OPS_MODEL, opsModel } from "./support/ops-model.js";

const model = opsModel();
afterAll(() => model.unregister());
afterEach(async () => {
	model.release();
	model.hold();
	await Promise.all(running.splice(0).map((server) => server.close()));
});

function eventOf(server: RunningServer, predicate: (event: SessionEvent) => boolean): Promise<SessionEvent> {
	return new Promise((resolve) => {
		const unsubscribe = server.runtime.subscribe((event) => {
			if (!predicate(event)) return;
			unsubscribe();
			resolve(event);
		});
	});
}

/** A request on a fresh connection, with the raw answer (status, headers, body): what a load balancer sees. */
function raw(
	url: string,
	method = "GET",
	body?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
	return new Promise((resolve, reject) => {
		const request = http.request(
			url,
			{ method, agent: false, headers: body ? { "Content-Type": "application/json" } : {} },
			(response) => {
				let text = "";
				response.on("data", (chunk) => {
					text += chunk;
				});
				response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
			},
		);
		request.on("error", reject);
		request.end(body);
	});
}

const homes: string[] = [];
afterAll(async () => {
	for (const home of homes) await fs.rm(home, { recursive: true, force: true });
});

/** A server whose store outlives its close(), so the test can read what the drain recorded. */
async function drainingServer(serverOptions: { shutdownGraceMs?: number; drainDelayMs?: number } = {}) {
	const home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-drain-"));
	homes.push(home);
	await fs.writeFile(path.join(home, "config.yaml"), "default_model: demo\n");
	const runtime = await AgentSessions.open({ home, resolveModel: model.resolveModel });
	const server = await startServer({
		runtime,
		port: 0,
		env: {},
		log: () => {},
		resolveModel: model.resolveModel,
		...serverOptions,
	});
	running.push(server);
	return server;
}

const running: RunningServer[] = [];

async function createSession(server: RunningServer): Promise<{ id: string }> {
	const response = await fetch(`${server.url}/api/sessions`, {
		method: "POST",
		headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ model: OPS_MODEL }),
	});
	return (await response.json()) as { id: string };
}

describe("a shutdown drains: nothing refused at the door, every response owed written", () => {
	it("while draining, /readyz is 503, new API requests get 503 SHUTTING_DOWN (Retry-After, Connection: close), and a ?wait=1 whose turn ends in the grace period gets its 200 in full", async () => {
		const server = await drainingServer({ shutdownGraceMs: 30_000 });
		const session = await createSession(server);
		const started = eventOf(server, (event) => event.type === "model.started");
		const waiting = raw(
			`${server.url}/api/sessions/${session.id}/messages?wait=1`,
			"POST",
			JSON.stringify({ content: "hold until the drain" }),
		);
		await started;
		expect((await raw(`${server.url}/readyz`)).status).toBe(200);

		const closed = server.close();
		const ready = await raw(`${server.url}/readyz`);
		expect(ready.status).toBe(503);
		expect(JSON.parse(ready.body)).toMatchObject({ ready: false, status: "draining" });
		expect((await raw(`${server.url}/healthz`)).status).toBe(200);
		const refused = await raw(
			`${server.url}/api/sessions/${session.id}/messages`,
			"POST",
			JSON.stringify({ content: "too late" }),
		);
		expect(refused.status).toBe(503);
		expect(JSON.parse(refused.body).error.code).toBe("SHUTTING_DOWN");
		expect(refused.headers["retry-after"]).toBe("1");
		expect(refused.headers.connection).toBe("close");
		expect((await raw(`${server.url}/api/sessions`)).status).toBe(503);

		model.release();
		const answered = await waiting;
		expect(answered.status).toBe(200);
		const body = JSON.parse(answered.body) as { records: Array<{ recordType: string; role?: string }> };
		expect(body.records.filter((record) => record.recordType === "message").map((record) => record.role)).toEqual([
			"user",
			"assistant",
		]);
		await closed;
		// The refused message was never queued: one turn in the log.
		const turns = await server.runtime.turns(session.id);
		expect(turns.map((turn) => turn.outcome)).toEqual(["completed"]);
	});

	it("past the grace period a ?wait=1 caller gets 503 TURN_INTERRUPTED, and its turn and the ones queued behind it are recorded as interrupted", async () => {
		const server = await drainingServer({ shutdownGraceMs: 200 });
		const session = await createSession(server);
		const started = eventOf(server, (event) => event.type === "model.started");
		const running = raw(
			`${server.url}/api/sessions/${session.id}/messages?wait=1`,
			"POST",
			JSON.stringify({ content: "hold forever" }),
		);
		await started;
		const queued = await raw(
			`${server.url}/api/sessions/${session.id}/messages`,
			"POST",
			JSON.stringify({ content: "behind it" }),
		);
		expect(queued.status).toBe(202);
		const queuedWait = raw(
			`${server.url}/api/sessions/${session.id}/messages?wait=1`,
			"POST",
			JSON.stringify({ content: "also behind" }),
		);
		await eventOf(server, (event) => event.type === "turn.queued" && event.position === 2);
		await server.close();
		for (const answer of [await running, await queuedWait]) {
			expect(answer.status).toBe(503);
			expect(JSON.parse(answer.body).error.code).toBe("TURN_INTERRUPTED");
		}
		const turns = await server.runtime.turns(session.id);
		expect(turns.map((turn) => [turn.turnId, turn.outcome])).toEqual([
			[expect.any(String), "interrupted"],
			[JSON.parse(queued.body).turnId, "interrupted"],
			[expect.any(String), "interrupted"],
		]);
	});

	it("during --drain-delay /readyz is 503 while API requests are still served", async () => {
		const server = await drainingServer({ drainDelayMs: 3000 });
		const closed = server.close();
		expect((await raw(`${server.url}/readyz`)).status).toBe(503);
		expect((await raw(`${server.url}/api/sessions`)).status).toBe(200);
		await closed;
	});
});
