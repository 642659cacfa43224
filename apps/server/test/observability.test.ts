import type { SessionEvent } from "@agent/session";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { EventClient } from "./support/event-client.js";
import { OPS_MODEL, opsModel } from "./support/ops-model.js";
import { closeTestServers, createSession, startTestServer, type TestServer } from "./support/test-server.js";

const model = opsModel();
afterAll(() => model.unregister());
afterEach(async () => {
	model.release();
	model.hold();
	await closeTestServers();
});

/** A server whose JSON log lines are kept, parsed. */
async function loggedServer(options: { configYaml?: string; token?: string } = {}) {
	const lines: Array<Record<string, unknown>> = [];
	const server = await startTestServer({
		...(options.configYaml ? { configYaml: options.configYaml } : {}),
		runtime: { resolveModel: model.resolveModel },
		server: {
			resolveModel: model.resolveModel,
			logFormat: "json",
			logLevel: "debug",
			log: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
			...(options.token ? { token: options.token } : {}),
		},
	});
	return { server, lines, of: (event: string) => lines.filter((line) => line.event === event) };
}

function eventOf(server: TestServer, predicate: (event: SessionEvent) => boolean): Promise<SessionEvent> {
	return new Promise((resolve) => {
		const unsubscribe = server.runtime.subscribe((event) => {
			if (!predicate(event)) return;
			unsubscribe();
			resolve(event);
		});
	});
}

/** The value of a sample of the Prometheus text, e.g. sample(text, 'agent_turns_total{outcome="failed",model="x"}'). */
function sample(text: string, series: string): number | undefined {
	const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
	return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("logs: one JSON line per request and per turn", () => {
	it("a ?wait=1 send logs its request (id, status, session, turn, duration) and its turn (outcome, model, tokens, calls, retries)", async () => {
		const { server, of } = await loggedServer();
		const session = await createSession(server, { model: OPS_MODEL });
		const response = await server.api(`/api/sessions/${session.id}/messages?wait=1`, {
			method: "POST",
			json: { content: "hello" },
			headers: { "X-Request-Id": "req-from-the-caller" },
		});
		expect(response.status).toBe(200);
		expect(response.headers.get("x-request-id")).toBe("req-from-the-caller");
		const { turnId } = (await response.json()) as { turnId: string };

		const request = of("request").find((line) => line.requestId === "req-from-the-caller");
		expect(request).toMatchObject({
			level: "info",
			method: "POST",
			path: `/api/sessions/${session.id}/messages`,
			route: "/api/sessions/:id/messages",
			status: 200,
			sessionId: session.id,
			turnId,
		});
		expect(typeof request?.durationMs).toBe("number");
		expect(Date.parse(String(request?.time))).not.toBeNaN();

		const [turn] = of("turn");
		expect(turn).toMatchObject({
			level: "info",
			sessionId: session.id,
			turnId,
			outcome: "completed",
			model: OPS_MODEL,
			modelCalls: 1,
			retries: 0,
		});
		expect(turn?.outputTokens).toBeGreaterThan(0);
		expect(turn?.inputTokens).toBeGreaterThan(0);
		expect(typeof turn?.durationMs).toBe("number");
		// Every request got an id of its own.
		const ids = of("request").map((line) => line.requestId);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it("a provider's 500 is logged (model.failed with its error, the turn as failed, warn level) and counted; the client gets a 502", async () => {
		const { server, of } = await loggedServer();
		const session = await createSession(server, { model: OPS_MODEL });
		const response = await server.api(`/api/sessions/${session.id}/messages?wait=1`, {
			method: "POST",
			json: { content: "fail please" },
		});
		expect(response.status).toBe(502);
		expect(of("model.failed")).toEqual([
			expect.objectContaining({
				level: "warn",
				sessionId: session.id,
				model: OPS_MODEL,
				provider: "faux-ops",
				call: 1,
				error: "500 Internal Server Error: provider down",
			}),
		]);
		expect(of("turn")).toEqual([
			expect.objectContaining({ level: "warn", outcome: "failed", errorCode: "MODEL_FAILED" }),
		]);
		expect(of("request").find((line) => line.status === 502)).toMatchObject({ level: "warn", sessionId: session.id });

		const metrics = await (await server.api("/metrics")).text();
		expect(
			sample(metrics, `agent_model_calls_total{model="${OPS_MODEL}",provider="faux-ops",stop_reason="error"}`),
		).toBe(1);
		expect(sample(metrics, `agent_turns_total{outcome="failed",model="${OPS_MODEL}"}`)).toBe(1);
	});
});

describe("/metrics", () => {
	it("counts requests, turns, model calls, tokens, lease waits, open WebSockets and queued and running turns, in Prometheus text", async () => {
		const { server } = await loggedServer();
		const session = await createSession(server, { model: OPS_MODEL });
		const socket = await EventClient.connect(`${server.url.replace(/^http/, "ws")}/api/sessions/${session.id}/events`);
		const started = eventOf(server, (event) => event.type === "model.started");
		const held = server.api(`/api/sessions/${session.id}/messages?wait=1`, {
			method: "POST",
			json: { content: "hold on" },
		});
		await started;
		const queued = await server.api(`/api/sessions/${session.id}/messages`, {
			method: "POST",
			json: { content: "next" },
		});
		expect(queued.status).toBe(202);

		const during = await (await server.api("/metrics")).text();
		expect(sample(during, "agent_turns_running")).toBe(1);
		expect(sample(during, "agent_turns_queued")).toBe(1);
		expect(sample(during, "agent_websockets_open")).toBe(1);
		expect(sample(during, "agent_ready")).toBe(1);

		model.release();
		expect((await held).status).toBe(200);
		await server.runtime.idle();
		expect((await server.api("/readyz")).status).toBe(200);
		const response = await server.api("/metrics");
		expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
		const text = await response.text();
		expect(sample(text, `agent_turns_total{outcome="completed",model="${OPS_MODEL}"}`)).toBe(2);
		expect(sample(text, `agent_turn_duration_seconds_count{outcome="completed",model="${OPS_MODEL}"}`)).toBe(2);
		expect(sample(text, `agent_model_call_duration_seconds_count{model="${OPS_MODEL}",provider="faux-ops"}`)).toBe(2);
		expect(sample(text, `agent_tokens_total{model="${OPS_MODEL}",kind="output"}`)).toBeGreaterThan(0);
		expect(sample(text, 'agent_lease_wait_seconds_count{outcome="acquired"}')).toBeGreaterThanOrEqual(2);
		expect(sample(text, "agent_turns_running")).toBe(0);
		expect(sample(text, "agent_turns_queued")).toBe(0);
		expect(sample(text, "agent_ready")).toBe(1);
		expect(
			sample(text, 'agent_http_requests_total{method="POST",route="/api/sessions/:id/messages",status="202"}'),
		).toBe(1);
		expect(text).toContain("# TYPE agent_turn_duration_seconds histogram");
		expect(text).toContain("process_resident_memory_bytes");
		await socket.close();
	});

	it("needs the API's token or server.metrics_token when a token is set; /healthz and /readyz need none", async () => {
		const token = "api-token-0123456789abcdef";
		const metricsToken = "scrape-token-0123456789abc";
		const { server } = await loggedServer({ token, configYaml: `server:\n  metrics_token: ${metricsToken}\n` });
		expect((await server.api("/metrics")).status).toBe(401);
		expect((await server.api("/metrics", { headers: { Authorization: "Bearer wrong-token-0123456789" } })).status).toBe(
			401,
		);
		for (const presented of [token, metricsToken]) {
			const response = await server.api("/metrics", { headers: { Authorization: `Bearer ${presented}` } });
			expect(response.status).toBe(200);
		}
		// The scrape token opens /metrics only.
		expect((await server.api("/api/sessions", { headers: { Authorization: `Bearer ${metricsToken}` } })).status).toBe(
			401,
		);
		expect((await server.api("/healthz")).status).toBe(200);
		expect((await server.api("/readyz")).status).toBe(200);
	});
});

describe("limits", () => {
	it("past server.max_queued_turns a send gets 429 QUEUE_FULL with Retry-After, and nothing is queued for it", async () => {
		const { server } = await loggedServer({ configYaml: "server:\n  max_queued_turns: 1\n" });
		const session = await createSession(server, { model: OPS_MODEL });
		const started = eventOf(server, (event) => event.type === "model.started");
		const send = (content: string) =>
			server.api(`/api/sessions/${session.id}/messages`, { method: "POST", json: { content } });
		expect((await send("hold the first")).status).toBe(202);
		await started;
		expect((await send("second waits")).status).toBe(202);
		const refused = await send("third is one too many");
		expect(refused.status).toBe(429);
		expect(refused.headers.get("retry-after")).toBe("5");
		expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({
			code: "QUEUE_FULL",
			message: expect.stringContaining("server.max_queued_turns is 1"),
		});
		model.release();
		await server.runtime.idle();
		const turns = (await (await server.api(`/api/sessions/${session.id}/turns`)).json()) as { turns: unknown[] };
		expect(turns.turns).toHaveLength(2);
	});
});
