import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hideStorePath } from "../src/http-error.js";
import { checkToken, resolveToken } from "../src/security.js";
import { startServer } from "../src/server.js";
import { closeTestServers, createSession, startTestServer } from "./support/test-server.js";

afterAll(closeTestServers);

const UNKNOWN_ID = "01JMRZ8X1Q9V5E2H3K4M6N7P8R";

describe("API responses are neither cached nor sniffed", () => {
	it("every /api answer (success, 4xx, unknown route) and /healthz carries Cache-Control: no-store and nosniff", async () => {
		const server = await startTestServer();
		const session = await createSession(server);
		const answers = [
			await server.api("/api/sessions"),
			await server.api(`/api/sessions/${session.id}/records`),
			await server.api(`/api/sessions/${UNKNOWN_ID}`),
			await server.api("/api/sessions/not-an-id"),
			await server.api("/api/no-such-route"),
			await server.api("/api/sessions", { method: "POST", body: "{}" }),
			await server.api("/healthz"),
		];
		for (const answer of answers) {
			expect(answer.headers.get("cache-control"), answer.url).toBe("no-store");
			expect(answer.headers.get("x-content-type-options"), answer.url).toBe("nosniff");
		}
	});

	it("the page's CSP lets it connect (fetch and WebSockets) to its own server only", async () => {
		const server = await startTestServer();
		const page = await server.api("/");
		if (page.status === 503) return expect.fail("the web page is not built; run pnpm build first");
		const csp = page.headers.get("content-security-policy") ?? "";
		const connect = csp.split(";").find((part) => part.trim().startsWith("connect-src"));
		expect(connect?.trim()).toBe("connect-src 'self'");
	});
});

describe("JSON routes need Content-Type: application/json", () => {
	it("a body sent as text/plain, form data or without a type is refused with 415 and changes nothing", async () => {
		const server = await startTestServer();
		const session = await createSession(server);
		const attempts: Array<[string, string, Record<string, string>]> = [
			["POST", "/api/sessions", { "Content-Type": "text/plain;charset=UTF-8" }],
			["POST", "/api/sessions", { "Content-Type": "application/x-www-form-urlencoded" }],
			["POST", "/api/sessions", { "Content-Type": "multipart/form-data; boundary=x" }],
			["POST", "/api/sessions", {}],
			["POST", `/api/sessions/${session.id}/messages`, { "Content-Type": "text/plain" }],
			["PATCH", `/api/sessions/${session.id}`, { "Content-Type": "text/json" }],
			["POST", `/api/sessions/${session.id}/fork`, { "Content-Type": "application/jsonx" }],
		];
		for (const [method, urlPath, headers] of attempts) {
			const body = urlPath.endsWith("/messages") ? '{"content":"hi"}' : '{"name":"csrf"}';
			const init: RequestInit = { method, headers, body };
			// fetch adds text/plain to a string body; a Blob without a type sends no Content-Type at all.
			if (!headers["Content-Type"]) init.body = new Blob([body]);
			const answer = await server.api(urlPath, init);
			expect(answer.status, `${method} ${urlPath} ${JSON.stringify(headers)}`).toBe(415);
			const error = ((await answer.json()) as { error: { code: string; message: string } }).error;
			expect(error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
			expect(error.message).toContain("Content-Type: application/json");
		}
		const list = (await (await server.api("/api/sessions")).json()) as { sessions: Array<{ name?: string }> };
		expect(list.sessions).toHaveLength(1);
		const records = (await (await server.api(`/api/sessions/${session.id}/records`)).json()) as { lastSeq: number };
		expect(records.lastSeq).toBe(0);
	});

	it("application/json with parameters, in any case, is accepted; an empty JSON body counts as {}", async () => {
		const server = await startTestServer();
		for (const type of ["application/json", "Application/JSON; charset=utf-8"]) {
			const answer = await server.api("/api/sessions", { method: "POST", headers: { "Content-Type": type } });
			expect(answer.status, type).toBe(201);
		}
	});
});

describe("tokens", () => {
	it("a token shorter than 16 characters or holding whitespace is refused, wherever it comes from", () => {
		for (const weak of [" ".repeat(16), "\t".repeat(20), "sixteen chars ok but spaced", "ok-but-short"]) {
			expect(() => checkToken(weak, "the token"), JSON.stringify(weak)).toThrow(/agent-sessions-server: the token/);
			expect(() => resolveToken(undefined, { AGENT_SERVER_TOKEN: weak }), JSON.stringify(weak)).toThrow(
				/AGENT_SERVER_TOKEN/,
			);
			expect(() => resolveToken(weak, {}), JSON.stringify(weak)).toThrow(/server\.token in config\.yaml/);
		}
		expect(() => checkToken("with space inside-long-enough", "the token")).toThrow(/whitespace/);
		expect(checkToken("a-long-random-token-0123456789", "the token")).toBe("a-long-random-token-0123456789");
	});

	it("startServer refuses a whitespace-only token instead of listening beyond loopback with it", async () => {
		await expect(
			startServer({ host: "0.0.0.0", port: 0, token: " ".repeat(32), env: {}, home: "/nonexistent-never-created" }),
		).rejects.toThrow(/at least 16|whitespace/);
		await expect(fs.access("/nonexistent-never-created")).rejects.toThrow();
	});
});

describe("an empty home is an error", () => {
	it('startServer({ home: "" }) is refused instead of silently serving ~/.agent', async () => {
		await expect(startServer({ home: "", port: 0, env: {} })).rejects.toThrow(/cannot be empty/);
		await expect(startServer({ home: "  ", port: 0, env: {} })).rejects.toThrow(/cannot be empty/);
	});
});

describe("errors never show where the store lives", () => {
	it("a missing session's 404 names the id, not the store's directory", async () => {
		const server = await startTestServer();
		for (const urlPath of [
			`/api/sessions/${UNKNOWN_ID}`,
			`/api/sessions/${UNKNOWN_ID}/records`,
			`/api/sessions/${UNKNOWN_ID}/context`,
		]) {
			const answer = await server.api(urlPath);
			expect(answer.status).toBe(404);
			const text = await answer.text();
			expect(text).toContain(UNKNOWN_ID);
			expect(text).not.toContain(server.home);
		}
		const deleted = await server.api(`/api/sessions/${UNKNOWN_ID}`, { method: "DELETE" });
		expect(await deleted.text()).not.toContain(server.home);
	});

	it("any other message has the store's directory replaced", () => {
		expect(hideStorePath("could not open /srv/agent/sessions/X/session.jsonl for reading", "/srv/agent")).toBe(
			"could not open the store/sessions/X/session.jsonl for reading",
		);
		expect(hideStorePath("nothing to hide", "/srv/agent")).toBe("nothing to hide");
		expect(hideStorePath("kept", undefined)).toBe("kept");
	});
});

describe("a damaged line in a log", () => {
	it("is skipped by GET records and reported with its line number, byte offset and why", async () => {
		const server = await startTestServer();
		const session = await createSession(server);
		await server.api(`/api/sessions/${session.id}/messages?wait=1`, { method: "POST", json: { content: "first" } });
		const log = path.join(server.home, "sessions", session.id, "session.jsonl");
		const damagedAt = (await fs.stat(log)).size;
		const damagedLine = (await fs.readFile(log, "utf8")).split("\n").length;
		await fs.appendFile(log, "{this is not a record\n");
		await server.api(`/api/sessions/${session.id}/messages?wait=1`, { method: "POST", json: { content: "second" } });
		const page = (await (await server.api(`/api/sessions/${session.id}/records`)).json()) as {
			records: Array<{ seq: number }>;
			problems?: Array<{ line: number; byteOffset: number; code: string; reason: string }>;
		};
		expect(page.records.length).toBeGreaterThanOrEqual(4);
		expect(page.problems).toHaveLength(1);
		expect(page.problems?.[0]).toMatchObject({ line: damagedLine, byteOffset: damagedAt });
		expect(page.problems?.[0]?.reason.length).toBeGreaterThan(0);
	});
});

describe("identifier-like fields are capped at the API", () => {
	it("an image's mimeType over 255 characters, or a tool call's id or name over its cap, is a 400 naming the field", async () => {
		const server = await startTestServer();
		const session = await createSession(server);
		const send = (content: unknown) =>
			server.api(`/api/sessions/${session.id}/messages`, { method: "POST", json: { content } });
		const cases: Array<[unknown, string]> = [
			[[{ type: "image", mimeType: `image/${"x".repeat(250)}`, data: "AAAA" }], "content.0.mimeType"],
			[
				[
					{ type: "text", text: "hi" },
					{ type: "toolCall", id: "x".repeat(1025), name: "t", arguments: {} },
				],
				"content.1.id",
			],
			[[{ type: "toolCall", id: "c1", name: "n".repeat(257), arguments: {} }], "content.0.name"],
		];
		for (const [content, field] of cases) {
			const answer = await send(content);
			expect(answer.status, field).toBe(400);
			const error = ((await answer.json()) as { error: { code: string; message: string } }).error;
			expect(error.code).toBe("INVALID_BODY");
			expect(error.message).toContain(field);
		}
		const records = (await (await server.api(`/api/sessions/${session.id}/records`)).json()) as { lastSeq: number };
		expect(records.lastSeq).toBe(0);
		const atCap = await send([{ type: "image", mimeType: `image/${"x".repeat(249)}`, data: "AAAA" }]);
		expect(atCap.status).toBe(202);
	});
});
