import { afterAll, describe, expect, it } from "vitest";
import { closeTestServers, createSession, startTestServer } from "./support/test-server.js";

afterAll(closeTestServers);

describe("requests whose body is left unread", () => {
	it("are answered with Connection: close, so the keep-alive requests after them never meet a socket the server destroys", async () => {
		const server = await startTestServer();
		const { id } = await createSession(server);
		const body = JSON.stringify({ content: "b".repeat(1 << 20) });
		const unread: Array<[string, string]> = [
			["POST", "/api/sessions/not-a-ulid/messages"], // 400 before the body is parsed
			["PUT", `/api/sessions/${id}/records`], // 404: no such route takes a body
			["DELETE", `/api/sessions/01JMRZ8X1Q9V5E2H3K4M6N7P8R`], // 404 for an unknown session, body ignored
		];
		const failures: string[] = [];
		for (let round = 0; round < 12; round++) {
			const [method, path] = unread[round % unread.length] as [string, string];
			const answer = await server.api(path, { method, body, headers: { "Content-Type": "application/json" } });
			await answer.text();
			expect(answer.status).toBeGreaterThanOrEqual(400);
			expect(answer.headers.get("connection")).toBe("close");
			for (let i = 0; i < 2; i++) {
				try {
					const health = await server.api("/healthz");
					await health.text();
				} catch (error) {
					failures.push(`${method} ${path} then GET /healthz: ${(error as Error).cause ?? error}`);
				}
				await new Promise((resolve) => setTimeout(resolve, 150));
			}
		}
		expect(failures).toEqual([]);
	}, 60_000);

	it("a request whose body was read keeps its connection", async () => {
		const server = await startTestServer();
		const answer = await server.api("/api/sessions", { method: "POST", json: { name: "kept" } });
		expect(answer.status).toBe(201);
		expect(answer.headers.get("connection")).not.toBe("close");
	});
});
