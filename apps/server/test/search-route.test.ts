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

	it("counts every hit and pages through them with offset; each hit names its session", async () => {
		const unnamedMatch = await createSession(server, { name: "no match in this name" });
		await server.runtime.store.append(
			unnamedMatch.id,
			Array.from({ length: 75 }, (_, i) => ({
				recordType: "message" as const,
				role: "user" as const,
				content: [{ type: "text" as const, text: `wombat number ${i}` }],
			})),
		);
		const first = (await (await server.api("/api/search?q=wombat&limit=30")).json()) as {
			hits: Array<Hit & { sessionName?: string }>;
			total: number;
			nextOffset?: number;
		};
		expect(first.total).toBe(75);
		expect(first.hits).toHaveLength(30);
		expect(first.nextOffset).toBe(30);
		expect(first.hits.every((hit) => hit.sessionName === "no match in this name")).toBe(true);
		const seen = new Set(first.hits.map((hit) => hit.seq));
		let offset = first.nextOffset;
		while (offset !== undefined) {
			const page = (await (await server.api(`/api/search?q=wombat&limit=30&offset=${offset}`)).json()) as {
				hits: Hit[];
				total: number;
				nextOffset?: number;
			};
			expect(page.total).toBe(75);
			for (const hit of page.hits) seen.add(hit.seq);
			offset = page.nextOffset;
		}
		expect(seen.size).toBe(75);
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
