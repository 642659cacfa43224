import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeTestServers, createSession, startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
	server = await startTestServer();
});
afterAll(closeTestServers);

interface Hit {
	sessionId: string;
	seq: number;
	role: string;
	snippet: string;
}

describe("GET /api/search", () => {
	it("finds message text in every session with its session, seq and snippet (the store's search)", async () => {
		const first = await createSession(server, { name: "first" });
		const second = await createSession(server, { name: "second" });
		for (const [session, content] of [
			[first, "where did I put the Quokka config?"],
			[second, "the quokka config lives in etc"],
		] as const) {
			const sent = await server.api(`/api/sessions/${session.id}/messages?wait=1`, {
				method: "POST",
				json: { content },
			});
			expect(sent.status).toBeLessThan(300);
		}
		const response = await server.api(`/api/search?q=${encodeURIComponent("QUOKKA config")}`);
		expect(response.status).toBe(200);
		const { hits } = (await response.json()) as { hits: Hit[] };
		const users = hits.filter((hit) => hit.role === "user");
		expect(users.map((hit) => hit.sessionId).sort()).toEqual([first.id, second.id].sort());
		expect(users.every((hit) => hit.seq === 1)).toBe(true);
		expect(users.find((hit) => hit.sessionId === second.id)?.snippet).toBe("the quokka config lives in etc");

		const limited = (await (await server.api("/api/search?q=quokka&limit=1")).json()) as { hits: Hit[] };
		expect(limited.hits.length).toBe(1);
		const none = (await (await server.api("/api/search?q=platypus")).json()) as { hits: Hit[] };
		expect(none.hits).toEqual([]);
	});

	it("an empty or missing q is a 400 that says what to give", async () => {
		for (const path of ["/api/search", "/api/search?q=%20%20"]) {
			const response = await server.api(path);
			expect(response.status).toBe(400);
			const body = (await response.json()) as { error: { code: string; message: string } };
			expect(body.error.message).toMatch(/q/);
		}
	});
});
