import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventClient } from "./support/event-client.js";
import { closeTestServers, createSession, startTestServer, type TestServer } from "./support/test-server.js";

// A slow demo model: a reply takes a few seconds, so a socket can join in the middle of one.
process.env.AGENT_DEMO_TOKENS_PER_SECOND = "30";

let server: TestServer;
let wsBase: string;
beforeAll(async () => {
	server = await startTestServer();
	wsBase = server.url.replace(/^http/, "ws");
});
afterAll(closeTestServers);

type Message = Record<string, unknown> & { type: string };

describe("a socket that subscribes in the middle of a turn", () => {
	it("gets the running turn, its reply so far and the turns queued behind it, then the rest as it comes", async () => {
		const session = await createSession(server);
		const early = await EventClient.connect(`${wsBase}/api/sessions/${session.id}/events`);
		const post = async (content: string) =>
			(await (
				await server.api(`/api/sessions/${session.id}/messages`, { method: "POST", json: { content } })
			).json()) as { turnId: string };
		const running = await post("tell me about rivers and lakes and the sea");
		const queued = await post("and then about mountains");
		await early.waitFor((m) => m.type === "turn.delta" && m.turnId === running.turnId);
		await new Promise((resolve) => setTimeout(resolve, 300));

		const late = await EventClient.connect(`${wsBase}/api/sessions/${session.id}/events`);
		const feed = await EventClient.connect(`${wsBase}/api/events`);
		await early.waitFor((m) => m.type === "turn.completed" && m.turnId === queued.turnId, 30_000);
		await late.waitFor((m) => m.type === "turn.completed" && m.turnId === queued.turnId, 30_000);

		const [subscribed, ...after] = late.messages as Message[];
		expect(subscribed?.type).toBe("subscribed");
		expect(after[0]).toMatchObject({ type: "turn.started", turnId: running.turnId });
		expect(after[1]).toMatchObject({ type: "turn.delta", turnId: running.turnId, kind: "text" });
		expect(String(after[1]?.delta).length).toBeGreaterThan(0);
		expect(after.some((m) => m.type === "turn.queued" && m.turnId === queued.turnId)).toBe(true);
		// The replayed text and the deltas after it are the whole reply, as stored.
		const textOf = (client: EventClient, turnId: string) =>
			client.messages
				.filter((m) => m.type === "turn.delta" && m.turnId === turnId && m.kind === "text")
				.map((m) => m.delta)
				.join("");
		expect(textOf(late, running.turnId)).toBe(textOf(early, running.turnId));
		expect(textOf(late, running.turnId)).toContain("rivers and lakes");

		// The feed tells a late subscriber which session is busy.
		expect((feed.messages as Message[])[1]).toMatchObject({ type: "turn.started", sessionId: session.id });
		expect(feed.ofType("turn.delta")).toHaveLength(0);
		await Promise.all([early.close(), late.close(), feed.close()]);
	});

	it("after the turn ended, a new subscriber gets nothing to replay", async () => {
		const session = await createSession(server);
		await server.api(`/api/sessions/${session.id}/messages?wait=1`, { method: "POST", json: { content: "hi" } });
		const client = await EventClient.connect(`${wsBase}/api/sessions/${session.id}/events`);
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(client.messages.map((m) => m.type)).toEqual(["subscribed"]);
		await client.close();
	});
});
