import http from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { assertSafeBind, isLoopbackHost, refuseRequest, resolveToken, tokenFromProtocols } from "../src/security.js";
import { startServer } from "../src/server.js";
import { EventClient, upgradeStatus } from "./support/event-client.js";
import { closeTestServers, createSession, startTestServer } from "./support/test-server.js";

const TOKEN = "a-long-enough-test-token-1234";

afterAll(closeTestServers);

describe("security rules", () => {
	it("loopback hosts are localhost, 127.0.0.0/8 and ::1; nothing else", () => {
		for (const host of ["127.0.0.1", "127.8.9.10", "localhost", "LOCALHOST", "::1", "[::1]", "app.localhost"]) {
			expect(isLoopbackHost(host), host).toBe(true);
		}
		for (const host of ["0.0.0.0", "::", "192.168.1.2", "10.0.0.1", "example.com", "127.0.0.1.nip.io", ""]) {
			expect(isLoopbackHost(host), host).toBe(false);
		}
	});

	it("a non-loopback bind without a token is refused; with one it is allowed", () => {
		expect(() => assertSafeBind("0.0.0.0", undefined)).toThrow(/AGENT_SERVER_TOKEN/);
		expect(() => assertSafeBind("0.0.0.0", TOKEN)).not.toThrow();
		expect(() => assertSafeBind("127.0.0.1", undefined)).not.toThrow();
	});

	it("the token comes from AGENT_SERVER_TOKEN first, then config; a short one is refused", () => {
		expect(resolveToken("from-config-0123456789", { AGENT_SERVER_TOKEN: TOKEN })).toBe(TOKEN);
		expect(resolveToken("from-config-0123456789", {})).toBe("from-config-0123456789");
		expect(resolveToken(undefined, {})).toBeUndefined();
		expect(() => resolveToken(undefined, { AGENT_SERVER_TOKEN: "short" })).toThrow(/16/);
	});

	it("without a token, a non-loopback Host header (DNS rebinding) and a foreign Origin are refused", () => {
		const open = { requireToken: false, corsOrigins: [] };
		expect(refuseRequest(open, { host: "127.0.0.1:4317", origin: undefined })).toBeUndefined();
		expect(refuseRequest(open, { host: "127.0.0.1:4317", origin: "http://127.0.0.1:4317" })).toBeUndefined();
		expect(refuseRequest(open, { host: "evil.example:4317", origin: undefined })?.code).toBe("HOST_NOT_ALLOWED");
		expect(refuseRequest(open, { host: "127.0.0.1:4317", origin: "https://evil.example" })?.code).toBe(
			"ORIGIN_NOT_ALLOWED",
		);
		const configured = { requireToken: false, corsOrigins: ["https://ui.example"] };
		expect(refuseRequest(configured, { host: "127.0.0.1:4317", origin: "https://ui.example" })).toBeUndefined();
	});

	it("the WebSocket token travels as a bearer.<base64url> subprotocol", () => {
		const encoded = Buffer.from(TOKEN).toString("base64url");
		expect(tokenFromProtocols(["agent-sessions.v1", `bearer.${encoded}`])).toBe(TOKEN);
		expect(tokenFromProtocols(["agent-sessions.v1"])).toBeUndefined();
		expect(tokenFromProtocols(["bearer.not base64!"])).toBeUndefined();
	});
});

describe("security over HTTP", () => {
	it("startServer refuses 0.0.0.0 without a token", async () => {
		await expect(
			startServer({ host: "0.0.0.0", port: 0, env: {}, home: "/nonexistent-home-never-created" }),
		).rejects.toThrow(/refusing to listen on 0\.0\.0\.0 without a token/);
	});

	it("with a token, API requests and WebSockets need it; the page and /healthz do not", async () => {
		const server = await startTestServer({ server: { token: TOKEN } });
		expect((await server.api("/api/sessions")).status).toBe(401);
		expect(
			(await server.api("/api/sessions", { headers: { Authorization: "Bearer wrong-token-0000000000" } })).status,
		).toBe(401);
		const authorized = { Authorization: `Bearer ${TOKEN}` };
		expect((await server.api("/api/sessions", { headers: authorized })).status).toBe(200);
		expect((await server.api("/healthz")).status).toBe(200);
		expect((await server.api("/")).status).toBeLessThan(500);

		const created = await server.api("/api/sessions", { method: "POST", json: {}, headers: authorized });
		const { id } = (await created.json()) as { id: string };
		const wsUrl = `${server.url.replace("http", "ws")}/api/sessions/${id}/events`;
		expect(await upgradeStatus(wsUrl)).toBe(401);
		const viaProtocol = await EventClient.connect(wsUrl, {
			protocols: ["agent-sessions.v1", `bearer.${Buffer.from(TOKEN).toString("base64url")}`],
		});
		await viaProtocol.close();
		const viaHeader = await EventClient.connect(wsUrl, { headers: authorized });
		await viaHeader.close();
	});

	it("no CORS headers unless origins are configured; configured origins get them", async () => {
		const plain = await startTestServer();
		const sameOrigin = await plain.api("/api/sessions");
		expect(sameOrigin.headers.get("access-control-allow-origin")).toBeNull();
		const foreign = await plain.api("/api/sessions", { headers: { Origin: "https://ui.example" } });
		expect(foreign.status).toBe(403);
		expect(foreign.headers.get("access-control-allow-origin")).toBeNull();

		const withCors = await startTestServer({ server: { corsOrigins: ["https://ui.example"] } });
		const allowed = await withCors.api("/api/sessions", { headers: { Origin: "https://ui.example" } });
		expect(allowed.status).toBe(200);
		expect(allowed.headers.get("access-control-allow-origin")).toBe("https://ui.example");
		const preflight = await withCors.api("/api/sessions", {
			method: "OPTIONS",
			headers: {
				Origin: "https://ui.example",
				"Access-Control-Request-Method": "POST",
				"Access-Control-Request-Headers": "content-type",
			},
		});
		expect(preflight.status).toBe(204);
		expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
	});

	it("requests addressed to a non-loopback Host are refused on an open loopback server", async () => {
		const server = await startTestServer();
		const session = await createSession(server);
		const url = new URL(server.url);
		const status = await new Promise<number>((resolve, reject) => {
			const request = http.request(
				{
					host: url.hostname,
					port: url.port,
					path: `/api/sessions/${session.id}`,
					headers: { Host: "attacker.example" },
				},
				(response) => {
					response.resume();
					resolve(response.statusCode ?? 0);
				},
			);
			request.on("error", reject);
			request.end();
		});
		expect(status).toBe(403);
		const wsUrl = `${server.url.replace("http", "ws")}/api/sessions/${session.id}/events`;
		expect(await upgradeStatus(wsUrl, { headers: { Origin: "https://attacker.example" } })).toBe(403);
	});
});
