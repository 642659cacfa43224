import { afterAll, describe, expect, it } from "vitest";
import { closeTestServers, createSession, startTestServer } from "./support/test-server.js";

afterAll(closeTestServers);

describe("requests whose body is left unread", () => {
	it("are drained, so the keep-alive requests after them never meet a socket the server destroys", async () => {
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

	it("a body over the limit is answered 413 once its upload is done, not cut off mid-upload", async () => {
		const server = await startTestServer({ server: { bodyLimitBytes: 1 << 20 } });
		const { id } = await createSession(server);
		const body = JSON.stringify({ content: "b".repeat(16 << 20) });
		for (let round = 0; round < 5; round++) {
			const answer = await server.api(`/api/sessions/${id}/messages`, {
				method: "POST",
				body,
				headers: { "Content-Type": "application/json" },
			});
			expect(answer.status).toBe(413);
			expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("BODY_TOO_LARGE");
			expect((await server.api("/healthz")).status).toBe(200);
		}
	});

	it("a large body sent to any route, with or without a body limit, gets its answer instead of a broken pipe", async () => {
		const server = await startTestServer();
		const body = "b".repeat(6 << 20);
		const failures: string[] = [];
		for (const [method, path] of [
			["OPTIONS", "/api/jobs"],
			["PUT", "/assets/app.js"],
			["DELETE", "/healthz"],
			["PATCH", "/api/sessions/not-a-ulid"],
		] as const) {
			try {
				const answer = await server.api(path, { method, body, headers: { "Content-Type": "application/json" } });
				await answer.text();
				if (answer.status >= 500) failures.push(`${method} ${path}: ${answer.status}`);
			} catch (error) {
				failures.push(`${method} ${path}: ${(error as Error).cause ?? error}`);
			}
		}
		expect(failures).toEqual([]);
	});
});
