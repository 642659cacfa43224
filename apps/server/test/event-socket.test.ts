import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventClient, upgradeStatus } from "./support/event-client.js";
import { closeTestServers, createSession, startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let wsBase: string;
beforeAll(async () => {
	server = await startTestServer();
	wsBase = server.url.replace(/^http/, "ws");
});
afterAll(closeTestServers);

describe("GET /api/sessions/:id/events (WebSocket)", () => {
	it("carries a turn's queueing, start, reply deltas, appended records and completion, in order", async () => {
		const session = await createSession(server);
		const client = await EventClient.connect(`${wsBase}/api/sessions/${session.id}/events`);
		const response = await server.api(`/api/sessions/${session.id}/messages`, {
			method: "POST",
			json: { content: "stream this please" },
		});
		const { turnId } = (await response.json()) as { turnId: string };
		await client.waitFor((message) => message.type === "turn.completed" && message.turnId === turnId);

		const types = client.messages.map((message) => message.type);
		expect(types[0]).toBe("subscribed");
		expect(types.indexOf("turn.started")).toBeLessThan(types.indexOf("turn.delta"));
		expect(types.lastIndexOf("turn.delta")).toBeLessThan(types.indexOf("turn.completed"));

		const deltas = client.ofType("turn.delta").filter((message) => message.turnId === turnId);
		expect(deltas.length).toBeGreaterThan(1);
		const streamed = deltas.map((message) => message.delta as string).join("");
		const completed = client.ofType("turn.completed")[0] as unknown as {
			records: Array<{ role?: string; content?: Array<{ text?: string }> }>;
		};
		const reply = completed.records.find((record) => record.role === "assistant");
		expect(streamed).toBe(reply?.content?.map((block) => block.text ?? "").join(""));
		expect(streamed).toContain("stream this please");
		const appended = client.ofType("record.appended").map((message) => (message.record as { seq: number }).seq);
		expect(appended).toEqual([...appended].sort((a, b) => a - b));
		expect(client.messages.every((message) => message.type === "subscribed" || message.sessionId === session.id)).toBe(
			true,
		);
		await client.close();
	});

	it("carries only its own session's events", async () => {
		const mine = await createSession(server);
		const other = await createSession(server);
		const client = await EventClient.connect(`${wsBase}/api/sessions/${mine.id}/events`);
		await server.api(`/api/sessions/${other.id}/messages?wait=1`, { method: "POST", json: { content: "elsewhere" } });
		await server.api(`/api/sessions/${mine.id}/messages?wait=1`, { method: "POST", json: { content: "here" } });
		await client.waitFor((message) => message.type === "turn.completed");
		expect(
			client.messages.filter((message) => message.type !== "subscribed").every((m) => m.sessionId === mine.id),
		).toBe(true);
		await client.close();
	});

	it("a bad id is refused with 400, an unknown one with 404, another path with 404", async () => {
		expect(await upgradeStatus(`${wsBase}/api/sessions/not-an-id/events`)).toBe(400);
		expect(await upgradeStatus(`${wsBase}/api/sessions/01JMRZ8X1Q9V5E2H3K4M6N7P8R/events`)).toBe(404);
		expect(await upgradeStatus(`${wsBase}/api/elsewhere`)).toBe(404);
	});

	it("GET /api/events carries every session's lifecycle and turn outcomes, without deltas or records", async () => {
		const feed = await EventClient.connect(`${wsBase}/api/events`);
		const session = await createSession(server);
		await server.api(`/api/sessions/${session.id}/messages?wait=1`, { method: "POST", json: { content: "feed me" } });
		await feed.waitFor((message) => message.type === "turn.completed" && message.sessionId === session.id);
		const types = new Set(feed.messages.map((message) => message.type));
		expect(types.has("session.created")).toBe(true);
		expect(types.has("session.updated")).toBe(true);
		expect(types.has("turn.delta")).toBe(false);
		expect(types.has("record.appended")).toBe(false);
		expect(feed.ofType("turn.completed")[0]).not.toHaveProperty("records");
		await feed.close();
	});

	it("deleting the session sends session.deleted and closes its sockets with 4404", async () => {
		const session = await createSession(server);
		const client = await EventClient.connect(`${wsBase}/api/sessions/${session.id}/events`);
		const closed = new Promise<number>((resolve) => client.socket.once("close", (code) => resolve(code)));
		expect((await server.api(`/api/sessions/${session.id}`, { method: "DELETE" })).status).toBe(204);
		expect(await closed).toBe(4404);
		expect(client.ofType("session.deleted")).toHaveLength(1);
	});

	it("closing the server closes open sockets", async () => {
		const own = await startTestServer();
		const session = await createSession(own);
		const client = await EventClient.connect(`${own.url.replace(/^http/, "ws")}/api/sessions/${session.id}/events`);
		const closed = new Promise<number>((resolve) => client.socket.once("close", (code) => resolve(code)));
		await own.close();
		expect(await closed).toBe(1001);
	});
});
