import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeTestServers, createSession, startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
	server = await startTestServer();
});
afterAll(closeTestServers);

describe("sessions routes", () => {
	it("GET /healthz answers ok with the version", async () => {
		const response = await server.api("/healthz");
		expect(response.status).toBe(200);
		const body = (await response.json()) as { ok: boolean; version: string };
		expect(body.ok).toBe(true);
		expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
	});

	it("POST /api/sessions creates a session with a generated ULID and ignores an id in the body", async () => {
		const response = await server.api("/api/sessions", {
			method: "POST",
			json: { id: "01AAAAAAAAAAAAAAAAAAAAAAAA", name: "Planning", systemPromptOverride: "Be brief." },
		});
		expect(response.status).toBe(201);
		const metadata = (await response.json()) as {
			id: string;
			name: string;
			systemPromptOverride: string;
			model: string;
		};
		expect(metadata.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
		expect(metadata.id).not.toBe("01AAAAAAAAAAAAAAAAAAAAAAAA");
		expect(metadata.name).toBe("Planning");
		expect(metadata.systemPromptOverride).toBe("Be brief.");
		expect(metadata.model).toBe("demo/demo");
		expect(response.headers.get("location")).toBe(`/api/sessions/${metadata.id}`);
	});

	it("POST /api/sessions with an unknown model is a 400 that names it", async () => {
		const response = await server.api("/api/sessions", { method: "POST", json: { model: "nowhere/nothing" } });
		expect(response.status).toBe(400);
		const body = (await response.json()) as { error: { code: string; message: string } };
		expect(body.error.code).toBe("MODEL_NOT_FOUND");
		expect(body.error.message).toContain("nowhere");
	});

	it("GET /api/sessions lists newest activity first, searches names, and pages with a cursor", async () => {
		const first = await createSession(server, { name: "alpha notes" });
		const second = await createSession(server, { name: "beta notes" });
		const third = await createSession(server, { name: "gamma" });
		await server.api(`/api/sessions/${first.id}/messages?wait=1`, { method: "POST", json: { content: "hello" } });

		const all = (await (await server.api("/api/sessions")).json()) as { sessions: Array<{ id: string }> };
		const ids = all.sessions.map((session) => session.id);
		expect(ids[0]).toBe(first.id);
		expect(ids.indexOf(third.id)).toBeLessThan(ids.indexOf(second.id));

		const found = (await (await server.api("/api/sessions?search=NOTES")).json()) as {
			sessions: Array<{ id: string }>;
		};
		expect(found.sessions.map((session) => session.id).sort()).toEqual([first.id, second.id].sort());

		const page1 = (await (await server.api("/api/sessions?limit=2")).json()) as {
			sessions: Array<{ id: string }>;
			nextCursor?: string;
		};
		expect(page1.sessions).toHaveLength(2);
		expect(page1.nextCursor).toBeTruthy();
		const page2 = (await (
			await server.api(`/api/sessions?limit=2&cursor=${encodeURIComponent(page1.nextCursor ?? "")}`)
		).json()) as { sessions: Array<{ id: string }> };
		const paged = [...page1.sessions, ...page2.sessions].map((session) => session.id);
		expect(new Set(paged).size).toBe(paged.length);
		expect(paged.slice(0, 3)).toEqual(ids.slice(0, 3));
	});

	it("GET /api/sessions/:id returns the metadata", async () => {
		const created = await createSession(server, { name: "meta" });
		const response = await server.api(`/api/sessions/${created.id}`);
		expect(response.status).toBe(200);
		expect(((await response.json()) as { name: string }).name).toBe("meta");
	});

	it("PATCH renames and archives; archived sessions leave the default list and show with ?archived=true", async () => {
		const created = await createSession(server, { name: "old name" });
		const renamed = await server.api(`/api/sessions/${created.id}`, { method: "PATCH", json: { name: "new name" } });
		expect(renamed.status).toBe(200);
		expect(((await renamed.json()) as { name: string }).name).toBe("new name");

		const archived = await server.api(`/api/sessions/${created.id}`, { method: "PATCH", json: { archived: true } });
		expect(((await archived.json()) as { archivedAt?: string }).archivedAt).toBeTruthy();
		const listed = (await (await server.api("/api/sessions?limit=500")).json()) as { sessions: Array<{ id: string }> };
		expect(listed.sessions.some((session) => session.id === created.id)).toBe(false);
		const withArchived = (await (await server.api("/api/sessions?archived=true&limit=500")).json()) as {
			sessions: Array<{ id: string }>;
		};
		expect(withArchived.sessions.some((session) => session.id === created.id)).toBe(true);

		const restored = await server.api(`/api/sessions/${created.id}`, { method: "PATCH", json: { archived: false } });
		expect(((await restored.json()) as { archivedAt?: string }).archivedAt).toBeUndefined();
	});

	it("PATCH with neither name nor archived is a 400", async () => {
		const created = await createSession(server);
		const response = await server.api(`/api/sessions/${created.id}`, { method: "PATCH", json: { color: "red" } });
		expect(response.status).toBe(400);
		expect(((await response.json()) as { error: { code: string } }).error.code).toBe("INVALID_BODY");
	});

	it("DELETE removes the session: 204, then 404", async () => {
		const created = await createSession(server);
		const deleted = await server.api(`/api/sessions/${created.id}`, { method: "DELETE" });
		expect(deleted.status).toBe(204);
		expect((await server.api(`/api/sessions/${created.id}`)).status).toBe(404);
		expect((await server.api(`/api/sessions/${created.id}`, { method: "DELETE" })).status).toBe(404);
	});

	it("an unknown route is a JSON 404", async () => {
		const response = await server.api("/api/nothing-here");
		expect(response.status).toBe(404);
		expect(((await response.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
	});
});
