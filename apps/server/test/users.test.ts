// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config.yaml's ${NAME} references are written here
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventClient, upgradeStatus } from "./support/event-client.js";
import { type Instance, startInstance } from "./support/instance.js";

const TOKENS = {
	admin: "admin-token-0123456789abcdef",
	alice: "alice-token-0123456789abcdef",
	bob: "bob-token-0123456789abcdef00",
};
type Who = keyof typeof TOKENS;

interface Metadata {
	id: string;
	createdBy?: string;
}

/** A real server process whose config.yaml names its users by ${VARIABLE}s set in its environment. */
async function startTeamServer(home: string): Promise<Instance> {
	await fs.writeFile(
		path.join(home, "config.yaml"),
		[
			"default_model: demo",
			"server:",
			"  token: ${ADMIN_TOKEN}",
			"  users:",
			"    - name: alice",
			"      token: ${ALICE_TOKEN}",
			"    - name: bob",
			"      token: ${BOB_TOKEN}",
			"",
		].join("\n"),
	);
	return startInstance(home, [], {
		ADMIN_TOKEN: TOKENS.admin,
		ALICE_TOKEN: TOKENS.alice,
		BOB_TOKEN: TOKENS.bob,
	});
}

describe("users: two users on one server (a real process)", () => {
	let home: string;
	let server: Instance;
	const call = (who: Who, urlPath: string, init: { method?: string; json?: unknown } = {}) =>
		fetch(`${server.url}${urlPath}`, {
			method: init.method ?? (init.json === undefined ? "GET" : "POST"),
			headers: {
				Authorization: `Bearer ${TOKENS[who]}`,
				...(init.json === undefined ? {} : { "Content-Type": "application/json" }),
			},
			...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
		});
	const json = async <T>(response: Response, status = 200): Promise<T> => {
		expect(response.status, await response.clone().text()).toBe(status);
		return (await response.json()) as T;
	};
	const listed = async (who: Who, query = "") =>
		(await json<{ sessions: Metadata[] }>(await call(who, `/api/sessions${query}`))).sessions.map((s) => s.id);
	const socketUrl = (urlPath: string) => `${server.url.replace(/^http/, "ws")}${urlPath}`;
	const socketAs = (who: Who) => ({ headers: { Authorization: `Bearer ${TOKENS[who]}` } });

	let aliceSession: string;
	let bobSession: string;

	beforeAll(async () => {
		home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-users-"));
		server = await startTeamServer(home);
		aliceSession = (await json<Metadata>(await call("alice", "/api/sessions", { json: { name: "alice's" } }), 201)).id;
		bobSession = (await json<Metadata>(await call("bob", "/api/sessions", { json: { name: "bob's" } }), 201)).id;
		for (const [who, id] of [
			["alice", aliceSession],
			["bob", bobSession],
		] as const) {
			await json(await call(who, `/api/sessions/${id}/messages?wait=1`, { json: { content: "pineapple plans" } }));
		}
	});
	afterAll(async () => {
		if (server?.child.exitCode === null) server.child.kill("SIGKILL");
		await fs.rm(home, { recursive: true, force: true });
	});

	it("each session records its creator in its log's first record", async () => {
		const { records } = await json<{ records: Array<{ seq: number; session?: { createdBy?: string } }> }>(
			await call("admin", `/api/sessions/${aliceSession}/records`),
		);
		expect(records[0]?.session?.createdBy).toBe("alice");
		expect((await json<Metadata>(await call("bob", `/api/sessions/${bobSession}`))).createdBy).toBe("bob");
	});

	it("a user lists and searches only their own sessions, filtered in the store (a page of one is full); an admin sees all", async () => {
		expect(await listed("alice")).toEqual([aliceSession]);
		expect(await listed("bob")).toEqual([bobSession]);
		expect(new Set(await listed("admin"))).toEqual(new Set([aliceSession, bobSession]));
		// limit=1: had the filter run after paging, bob's newer session would take alice's only slot.
		expect(await listed("alice", "?limit=1")).toEqual([aliceSession]);
		const hits = async (who: Who) =>
			new Set(
				(await json<{ hits: Array<{ sessionId: string }> }>(await call(who, "/api/search?q=pineapple"))).hits.map(
					(hit) => hit.sessionId,
				),
			);
		expect(await hits("alice")).toEqual(new Set([aliceSession]));
		expect(await hits("bob")).toEqual(new Set([bobSession]));
		expect(await hits("admin")).toEqual(new Set([aliceSession, bobSession]));
	});

	it("a user cannot read, change, send to, fork or delete another's session: 404, as if it did not exist", async () => {
		const attempts: Array<[string, string, unknown?]> = [
			["GET", `/api/sessions/${bobSession}`],
			["GET", `/api/sessions/${bobSession}/records`],
			["GET", `/api/sessions/${bobSession}/context`],
			["GET", `/api/sessions/${bobSession}/turns`],
			["GET", `/api/sessions/${bobSession}/export?format=md`],
			["PATCH", `/api/sessions/${bobSession}`, { name: "mine now" }],
			["POST", `/api/sessions/${bobSession}/messages`, { content: "hi bob" }],
			["POST", `/api/sessions/${bobSession}/fork`, {}],
			["POST", `/api/sessions/${bobSession}/labels`, { targetSeq: 1, label: "x" }],
			["POST", `/api/sessions/${bobSession}/cancel`, {}],
			["DELETE", `/api/sessions/${bobSession}`],
		];
		for (const [method, urlPath, body] of attempts) {
			const response = await call("alice", urlPath, { method, ...(body === undefined ? {} : { json: body }) });
			expect(`${method} ${urlPath} ${response.status}`).toBe(`${method} ${urlPath} 404`);
			expect(((await response.json()) as { error: { code: string } }).error.code).toBe("SESSION_NOT_FOUND");
		}
		// Nothing changed: bob's session is as it was, with its one turn.
		const bobs = await json<Metadata & { name: string; lastSeq: number }>(
			await call("bob", `/api/sessions/${bobSession}`),
		);
		expect(bobs.name).toBe("bob's");
		expect(await listed("bob")).toEqual([bobSession]);
		// The admin may do it.
		expect((await call("admin", `/api/sessions/${bobSession}/records`)).status).toBe(200);
	});

	it("WebSockets: a user cannot watch another's session, and their feed carries only their own sessions' events", async () => {
		expect(await upgradeStatus(socketUrl(`/api/sessions/${bobSession}/events`), socketAs("alice"))).toBe(404);
		expect(await upgradeStatus(socketUrl(`/api/sessions/${aliceSession}/events`), socketAs("alice"))).toBe(101);
		const aliceFeed = await EventClient.connect(socketUrl("/api/events"), socketAs("alice"));
		const adminFeed = await EventClient.connect(socketUrl("/api/events"), socketAs("admin"));
		const bobTurn = await json<{ turnId: string }>(
			await call("bob", `/api/sessions/${bobSession}/messages?wait=1`, { json: { content: "bob again" } }),
		);
		await adminFeed.waitFor((event) => event.type === "turn.completed" && event.turnId === bobTurn.turnId);
		const created = await json<Metadata>(await call("bob", "/api/sessions", { json: { name: "bob's second" } }), 201);
		await adminFeed.waitFor((event) => event.type === "session.created" && event.sessionId === created.id);
		const aliceTurn = await json<{ turnId: string }>(
			await call("alice", `/api/sessions/${aliceSession}/messages?wait=1`, { json: { content: "alice again" } }),
		);
		// The feed keeps order: once alice's turn is there, anything of bob's sent before it would be too.
		await aliceFeed.waitFor((event) => event.type === "turn.completed" && event.turnId === aliceTurn.turnId);
		const seen = new Set(aliceFeed.messages.map((event) => event.sessionId).filter((id) => id !== undefined));
		expect(seen).toEqual(new Set([aliceSession]));
		expect(adminFeed.messages.some((event) => event.sessionId === aliceSession)).toBe(true);
		await Promise.all([aliceFeed.close(), adminFeed.close()]);
	});

	it("an identity key is each user's own: the same key gives alice and bob their own sessions", async () => {
		const send = (who: Who) =>
			call(who, "/api/identities/standup/messages?wait=1", { json: { content: `from ${who}` } }).then((response) =>
				json<{ sessionId: string; created: boolean }>(response),
			);
		const alice = await send("alice");
		const bob = await send("bob");
		expect(alice.created && bob.created).toBe(true);
		expect(alice.sessionId).not.toBe(bob.sessionId);
		expect(await send("alice")).toMatchObject({ sessionId: alice.sessionId, created: false });
		expect((await json<Metadata>(await call("bob", `/api/sessions/${bob.sessionId}`))).createdBy).toBe("bob");
	});

	it("stats: a user gets their own usage, an admin every user's (byUser)", async () => {
		interface Stats {
			sessions: number;
			byUser: Record<string, { sessions: number; turns: number }>;
			user: { name?: string; admin: boolean };
		}
		const admin = await json<Stats>(await call("admin", "/api/stats"));
		const alice = await json<Stats>(await call("alice", "/api/stats"));
		expect(Object.keys(admin.byUser)).toEqual(["alice", "bob"]);
		expect(admin.user).toEqual({ name: "admin", admin: true });
		expect(alice.user).toEqual({ name: "alice", admin: false });
		expect(Object.keys(alice.byUser)).toEqual(["alice"]);
		expect(alice.byUser.alice).toEqual(admin.byUser.alice);
		expect(alice.sessions).toBe(admin.byUser.alice?.sessions);
		expect(admin.byUser.alice?.turns).toBeGreaterThanOrEqual(3);
	});

	it("a wrong token is a 401 and is logged, one line naming the client and the request", async () => {
		const response = await fetch(`${server.url}/api/sessions`, {
			headers: { Authorization: "Bearer not-a-user-token-000" },
		});
		expect(response.status).toBe(401);
		expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
		const line = await server.waitForLog(/auth\.failed/);
		expect(line).toMatch(/WARN +auth\.failed client=127\.0\.0\.1 request="GET \/api\/sessions" reason="wrong token"/);
		expect(server.stderr).not.toContain("not-a-user-token");
	});
});

describe("users: a server started after the sessions were created (a real process)", () => {
	it("alice's feed hears of her session deleted by an admin, though this process never saw it created", async () => {
		const home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-users-"));
		const auth = (who: Who) => ({ headers: { Authorization: `Bearer ${TOKENS[who]}` } });
		try {
			const first = await startTeamServer(home);
			const created = await fetch(`${first.url}/api/sessions`, {
				method: "POST",
				headers: { ...auth("alice").headers, "Content-Type": "application/json" },
				body: "{}",
			});
			const { id } = (await created.json()) as Metadata;
			first.child.kill("SIGKILL");
			await new Promise((resolve) => first.child.once("exit", resolve));

			const server = await startTeamServer(home);
			try {
				const feed = await EventClient.connect(`${server.url.replace(/^http/, "ws")}/api/events`, auth("alice"));
				expect((await fetch(`${server.url}/api/sessions/${id}`, { method: "DELETE", ...auth("admin") })).status).toBe(
					204,
				);
				await feed.waitFor((event) => event.type === "session.deleted" && event.sessionId === id);
				await feed.close();
			} finally {
				server.child.kill("SIGKILL");
			}
		} finally {
			await fs.rm(home, { recursive: true, force: true });
		}
	});
});
