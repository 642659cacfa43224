import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SLOW_READER_CLOSE } from "../src/send-budget.js";
import { EventClient } from "./support/event-client.js";
import { closeTestServers, createSession, startTestServer, type TestServer } from "./support/test-server.js";

afterAll(closeTestServers);

const MiB = 1024 * 1024;
/** A 3 MiB message is far over the demo model's window: without this, every turn would compact first. */
const NO_COMPACTION = "compaction:\n  enabled: false\n";

/** A socket that stops reading once subscribed: the server's writes pile up on its side. */
async function pausedReader(url: string): Promise<{ socket: WebSocket; closed: Promise<number>; resume(): void }> {
	const socket = new WebSocket(url, ["agent-sessions.v1"]);
	const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
	await new Promise<void>((resolve, reject) => {
		socket.once("error", reject);
		socket.once("message", () => {
			// biome-ignore lint/suspicious/noExplicitAny: ws keeps its net.Socket private
			(socket as any)._socket.pause();
			resolve();
		});
	});
	return {
		socket,
		closed,
		// biome-ignore lint/suspicious/noExplicitAny: ws keeps its net.Socket private
		resume: () => (socket as any)._socket.resume(),
	};
}

/** A turn whose user message is `bytes` long: a record.appended and a turn.completed that large. */
async function bigTurn(server: TestServer, sessionId: string, bytes: number): Promise<void> {
	const answer = await server.api(`/api/sessions/${sessionId}/messages?wait=1`, {
		method: "POST",
		json: { content: "x".repeat(bytes) },
	});
	expect(answer.status).toBe(200);
}

describe("slow WebSocket readers are dropped, never buffered without bound", () => {
	it(`a socket whose queue plus the next message passes its cap is closed with ${SLOW_READER_CLOSE}, and may reconnect`, async () => {
		const server = await startTestServer({
			configYaml: NO_COMPACTION,
			server: { bodyLimitBytes: 8 * MiB, socketBudget: { perSocketBytes: 64 * 1024, totalBytes: 256 * MiB } },
		});
		const session = await createSession(server);
		const url = `${server.url.replace(/^http/, "ws")}/api/sessions/${session.id}/events`;
		// It reads, but a 6 MiB record is still queued when the next event comes in the same tick.
		const client = await EventClient.connect(url);
		const closed = new Promise<number>((resolve) => client.socket.on("close", (code) => resolve(code)));
		await bigTurn(server, session.id, 6 * MiB);
		expect(await closed).toBe(SLOW_READER_CLOSE);
		expect(client.ofType("record.appended").length).toBeGreaterThan(0);

		const again = await EventClient.connect(url);
		await server.api(`/api/sessions/${session.id}/messages?wait=1`, { method: "POST", json: { content: "small" } });
		await again.waitFor((message) => message.type === "turn.completed");
		expect(again.socket.readyState).toBe(WebSocket.OPEN);
		await again.close();
	});

	it("over the total budget the readers furthest behind are dropped; the readers keeping up are not", async () => {
		const server = await startTestServer({
			configYaml: NO_COMPACTION,
			server: { bodyLimitBytes: 8 * MiB, socketBudget: { perSocketBytes: 64 * MiB, totalBytes: 8 * MiB } },
		});
		const session = await createSession(server);
		const url = `${server.url.replace(/^http/, "ws")}/api/sessions/${session.id}/events`;
		const reader = await EventClient.connect(url);
		const stalled = await Promise.all(Array.from({ length: 10 }, () => pausedReader(url)));
		for (let turn = 0; turn < 3; turn++) await bigTurn(server, session.id, 3 * MiB);
		// Resumed within the close grace: each takes its backlog, then sees its end.
		await new Promise((resolve) => setTimeout(resolve, 1500));
		for (const paused of stalled) paused.resume();
		const codes = await Promise.all(stalled.map((paused) => paused.closed));
		expect(codes.every((code) => code === SLOW_READER_CLOSE || code === 1006)).toBe(true);
		await reader.waitFor(() => reader.ofType("turn.completed").length === 3);
		expect(reader.socket.readyState).toBe(WebSocket.OPEN);
		await reader.close();
	});
});
