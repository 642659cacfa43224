import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createFileStore } from "@agent/session-fs";
import { afterAll, describe, expect, it } from "vitest";
import { EventClient, upgradeStatus } from "./support/event-client.js";
import { type Instance, startInstance } from "./support/instance.js";

const ALICE = "alice-token-0123456789abcd";
const BOB = "bob-token-0123456789abcdef";

const homes: string[] = [];
const servers: Instance[] = [];
afterAll(async () => {
	for (const server of servers) if (server.child.exitCode === null) server.child.kill("SIGKILL");
	await Promise.all(homes.map((home) => fs.rm(home, { recursive: true, force: true })));
});

/** A real server process with alice and bob and these `server.limits` (YAML lines). */
async function start(limits: string[]): Promise<{ server: Instance; home: string }> {
	const home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-limits-"));
	homes.push(home);
	await fs.writeFile(
		path.join(home, "config.yaml"),
		[
			"default_model: demo",
			"server:",
			"  users:",
			`    - { name: alice, token: ${ALICE} }`,
			`    - { name: bob, token: ${BOB} }`,
			"  limits:",
			...limits.map((line) => `    ${line}`),
			"",
		].join("\n"),
	);
	const server = await startInstance(home, []);
	servers.push(server);
	return { server, home };
}

const get = (server: Instance, token: string, urlPath = "/api/sessions") =>
	fetch(`${server.url}${urlPath}`, { headers: { Authorization: `Bearer ${token}` } });

describe("per-client limits (real processes)", () => {
	it("failed authentication is rate limited per address: past the budget a 429 with Retry-After, even for a good token; each failure logged", async () => {
		// A budget of 3 a minute refills one every 20 s: nothing comes back while the test runs.
		const { server } = await start(["auth_failures_per_minute: 3"]);
		for (let i = 0; i < 3; i++) expect((await get(server, `wrong-token-${i}-0123456789`)).status).toBe(401);
		const limited = await get(server, "wrong-token-x-0123456789");
		expect(limited.status).toBe(429);
		expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
		expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("AUTH_RATE_LIMITED");
		// The token of a blocked address is not even looked at.
		expect((await get(server, ALICE)).status).toBe(429);
		expect(
			await upgradeStatus(`${server.url.replace(/^http/, "ws")}/api/events`, {
				headers: { Authorization: `Bearer ${ALICE}` },
			}),
		).toBe(429);
		const failures = server.stderr.split("\n").filter((line) => /WARN +auth\.failed client=127\.0\.0\.1/.test(line));
		expect(failures).toHaveLength(3);
		expect(failures[2]).toMatch(/blocked=true/);
	});

	it("requests per client per second: one user's burst spent is a 429 for them, not for another user", async () => {
		// A burst of 4 refilled at 0.01 a second: the fifth request within the test is refused.
		const { server } = await start(["requests_per_second: 0.01", "request_burst: 4"]);
		const statuses: number[] = [];
		for (let i = 0; i < 5; i++) statuses.push((await get(server, ALICE)).status);
		expect(statuses).toEqual([200, 200, 200, 200, 429]);
		const limited = await get(server, ALICE);
		expect(limited.status).toBe(429);
		expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(60);
		expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("RATE_LIMITED");
		expect((await get(server, BOB)).status).toBe(200);
		// The page and liveness are not API requests: they are not counted.
		expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
		expect(await server.waitForLog(/WARN +request\.rate_limited client=user:alice/)).toContain(
			'request="GET /api/sessions"',
		);
	});

	it("WebSockets per client: past the limit a 429; a socket closed frees its place; other users are not counted", async () => {
		const { server } = await start(["websockets_per_client: 2"]);
		const feed = `${server.url.replace(/^http/, "ws")}/api/events`;
		const as = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });
		const first = await EventClient.connect(feed, as(ALICE));
		const second = await EventClient.connect(feed, as(ALICE));
		expect(await upgradeStatus(feed, as(ALICE))).toBe(429);
		expect(await upgradeStatus(feed, as(BOB))).toBe(101);
		await first.close();
		// The server counts the socket out when its side closes, a moment after the client's.
		let status = 0;
		const deadline = Date.now() + 10_000;
		while (status !== 101 && Date.now() < deadline) status = await upgradeStatus(feed, as(ALICE));
		expect(status).toBe(101);
		await second.close();
	});

	it("a daily spend cap per user: a turn past it is refused with 429 until midnight UTC; others go on", async () => {
		const { server, home } = await start(["daily_spend_limit: 1"]);
		const post = (token: string, urlPath: string, body: unknown) =>
			fetch(`${server.url}${urlPath}`, {
				method: "POST",
				headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
				body: JSON.stringify(body),
			});
		const { id } = (await (await post(ALICE, "/api/sessions", {})).json()) as { id: string };
		const { id: bobs } = (await (await post(BOB, "/api/sessions", {})).json()) as { id: string };
		expect((await post(ALICE, `/api/sessions/${id}/messages?wait=1`, { content: "free demo turn" })).status).toBe(200);
		// A reply that cost $1.25, written to the store by another process (as another instance would).
		const store = createFileStore({ home });
		await store.append(id, [
			{
				recordType: "message",
				role: "assistant",
				content: [{ type: "text", text: "an expensive answer" }],
				// The session's own model (a provider without a key here would refuse the next send first).
				provider: "demo",
				model: "demo",
				usage: {
					input: 1000,
					output: 1000,
					cacheRead: 0,
					cacheWrite: 0,
					totalTokens: 2000,
					cost: { input: 0.25, output: 1, cacheRead: 0, cacheWrite: 0, total: 1.25 },
				},
				stopReason: "stop",
			},
		]);
		const lastSeq = async () =>
			((await (await get(server, ALICE, `/api/sessions/${id}`)).json()) as { lastSeq: number }).lastSeq;
		const before = await lastSeq();
		const refused = await post(ALICE, `/api/sessions/${id}/messages`, { content: "one more" });
		expect(refused.status).toBe(429);
		const body = (await refused.json()) as { error: { code: string; message: string } };
		expect(body.error.code).toBe("SPEND_LIMIT_REACHED");
		expect(body.error.message).toMatch(/alice spent \$1\.2500 .* the daily limit is \$1/);
		const retryAfter = Number(refused.headers.get("retry-after"));
		expect(retryAfter).toBeGreaterThan(0);
		expect(retryAfter).toBeLessThanOrEqual(86_400);
		// Nothing was queued: the session holds what it held.
		expect(await lastSeq()).toBe(before);
		expect((await post(ALICE, "/api/identities/elsewhere/messages", { content: "around it?" })).status).toBe(429);
		expect((await post(BOB, `/api/sessions/${bobs}/messages?wait=1`, { content: "bob is fine" })).status).toBe(200);
		const stats = (await (await get(server, ALICE, "/api/stats")).json()) as { user: { spentToday: number } };
		expect(stats.user).toMatchObject({ name: "alice", dailySpendLimit: 1, spentToday: 1.25 });
	});
});
