import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { AgentSessions } from "@agent/session";
import { parseConfig } from "@agent/session/config";
import type { SessionStore } from "@agent/session-format";
import { createFileStore } from "@agent/session-fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server.js";

/** S7.8 and friends: bad ids, unknown ids, malformed bodies and oversized bodies, against a store that records every call. */
let server: RunningServer;
let home: string;
const storeCalls: string[] = [];

function countingStore(store: SessionStore): SessionStore {
	return new Proxy(store, {
		get(target, key, receiver) {
			const value = Reflect.get(target, key, receiver);
			if (typeof value !== "function") return value;
			return (...args: unknown[]) => {
				storeCalls.push(String(key));
				return value.apply(target, args);
			};
		},
	});
}

beforeAll(async () => {
	home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-server-validation-"));
	const runtime = await AgentSessions.open({
		store: countingStore(createFileStore({ home })),
		config: parseConfig("default_model: demo\n"),
	});
	server = await startServer({ runtime, port: 0, env: {}, bodyLimitBytes: 4096, log: () => {} });
});
afterAll(async () => {
	await server.close();
	await fs.rm(home, { recursive: true, force: true });
});
beforeEach(() => {
	storeCalls.length = 0;
});

const UNKNOWN_ID = "01JMRZ8X1Q9V5E2H3K4M6N7P8R";
const BAD_IDS = [
	"not-a-ulid",
	"..%2F..%2Fetc%2Fpasswd",
	"01JMRZ8X1Q9V5E2H3K4M6N7P8",
	"01JMRZ8X1Q9V5E2H3K4M6N7P8RX",
	"01jmrz8x1q9v5e2h3k4m6n7p8r",
	"01JMRZ8X1Q9V5E2H3K4M6N7P8I",
	"%00",
	"%E0%A4%A",
	"%C3%BC".repeat(13),
	"A".repeat(5000),
];

const ROUTES: Array<{ method: string; path: (id: string) => string; body?: unknown }> = [
	{ method: "GET", path: (id) => `/api/sessions/${id}` },
	{ method: "PATCH", path: (id) => `/api/sessions/${id}`, body: { name: "x" } },
	{ method: "DELETE", path: (id) => `/api/sessions/${id}` },
	{ method: "GET", path: (id) => `/api/sessions/${id}/records` },
	{ method: "GET", path: (id) => `/api/sessions/${id}/context` },
	{ method: "POST", path: (id) => `/api/sessions/${id}/messages`, body: { content: "hi" } },
	{ method: "POST", path: (id) => `/api/sessions/${id}/compact`, body: {} },
	{ method: "POST", path: (id) => `/api/sessions/${id}/fork`, body: {} },
	{ method: "POST", path: (id) => `/api/sessions/${id}/branch`, body: { atSeq: 1 } },
];

async function call(method: string, urlPath: string, body?: string, headers: Record<string, string> = {}) {
	const response = await fetch(`${server.url}${urlPath}`, {
		method,
		headers: body !== undefined ? { "Content-Type": "application/json", ...headers } : headers,
		...(body !== undefined ? { body } : {}),
	});
	const text = await response.text();
	return {
		status: response.status,
		body: text ? (JSON.parse(text) as { error?: { code: string; message: string } }) : {},
	};
}

describe("S7.8: request validation", () => {
	it("an :id that is not a ULID is a 400 on every route, before the store is touched", async () => {
		for (const route of ROUTES) {
			for (const id of BAD_IDS) {
				const result = await call(route.method, route.path(id), route.body ? JSON.stringify(route.body) : undefined);
				expect(result.status, `${route.method} ${route.path(id).slice(0, 80)}`).toBe(400);
				expect(result.body.error?.code).toBe("INVALID_SESSION_ID");
			}
		}
		expect(storeCalls).toEqual([]);
	});

	it("a well-formed id of no session is a 404 on every route", async () => {
		for (const route of ROUTES) {
			const result = await call(
				route.method,
				route.path(UNKNOWN_ID),
				route.body ? JSON.stringify(route.body) : undefined,
			);
			expect(result.status, `${route.method} ${route.path(UNKNOWN_ID)}`).toBe(404);
			expect(result.body.error?.code).toBe("SESSION_NOT_FOUND");
		}
	});

	it("malformed JSON is a 400 that says it is not JSON", async () => {
		for (const body of ["{", "[1,2", "nul", "{'single': 1}", '{"content": "a",}', "\u0000"]) {
			const result = await call("POST", "/api/sessions", body);
			expect(result.status, JSON.stringify(body)).toBe(400);
			expect(result.body.error?.code).toBe("INVALID_JSON");
			expect(result.body.error?.message).toContain("not valid JSON");
		}
	});

	it("JSON of the wrong shape is a 400 naming the field", async () => {
		const created = await call("POST", "/api/sessions", "{}");
		const id = (created.body as unknown as { id: string }).id;
		const shapes: Array<[string, string]> = [
			["[]", ""],
			['"text"', ""],
			["null", ""],
			["42", ""],
			['{"content": {"type": "text"}}', "content"],
			['{"content": [{"type": "text"}]}', "content"],
			['{"content": [{"type": "toolCall", "id": "", "name": "x", "arguments": 1}]}', "content"],
			['{"content": "hi", "model": 7}', "model"],
		];
		for (const [body, field] of shapes) {
			const result = await call("POST", `/api/sessions/${id}/messages`, body);
			expect(result.status, body).toBe(400);
			expect(result.body.error?.code).toBe("INVALID_BODY");
			expect(result.body.error?.message).toContain(field);
		}
	});

	it("a body over the limit is a 413, with or without a Content-Length", async () => {
		const big = JSON.stringify({ name: "x".repeat(8000) });
		const withLength = await call("POST", "/api/sessions", big);
		expect(withLength.status).toBe(413);
		expect(withLength.body.error?.code).toBe("BODY_TOO_LARGE");

		const chunked = await new Promise<number>((resolve, reject) => {
			const url = new URL(`${server.url}/api/sessions`);
			const request = http.request(
				{
					host: url.hostname,
					port: url.port,
					path: url.pathname,
					method: "POST",
					headers: { "Content-Type": "application/json" },
				},
				(response) => {
					response.resume();
					resolve(response.statusCode ?? 0);
				},
			);
			request.on("error", reject);
			for (let i = 0; i < 8; i++) request.write(big.slice(i * 1000, (i + 1) * 1000));
			request.end(big.slice(8000));
		});
		expect(chunked).toBe(413);
	});

	it("odd query strings and body shapes never cause a 500", async () => {
		const created = await call("POST", "/api/sessions", "{}");
		const id = (created.body as unknown as { id: string }).id;
		const requests: Array<[string, string, string?]> = [
			["GET", "/api/sessions?limit=abc"],
			["GET", "/api/sessions?limit=1e3"],
			["GET", "/api/sessions?limit=-5"],
			["GET", "/api/sessions?archived=maybe"],
			["GET", "/api/sessions?cursor=%FF%FE"],
			["GET", "/api/sessions?cursor=not-a-cursor"],
			["GET", "/api/sessions?search=%00%01"],
			["GET", `/api/sessions?search=${"q".repeat(1000)}`],
			["GET", `/api/sessions/${id}/context?leafSeq=999999`],
			["GET", `/api/sessions/${id}/context?leafSeq=0`],
			["GET", `/api/sessions/${id}/records?after=99999999999999`],
			["POST", "/api/sessions", '{"__proto__": {"polluted": true}, "name": "p"}'],
			["POST", "/api/sessions", `${"[".repeat(5000)}${"]".repeat(5000)}`],
			["POST", "/api/sessions", '{"name": 1e999}'],
			["POST", `/api/sessions/${id}/fork`, '{"atSeq": 999}'],
			["POST", `/api/sessions/${id}/fork`, '{"atSeq": 1.5}'],
			["POST", `/api/sessions/${id}/branch`, '{"atSeq": -1}'],
			["POST", `/api/sessions/${id}/compact`, '{"keepRecentTokens": "lots"}'],
			["PATCH", `/api/sessions/${id}`, '{"archived": "yes"}'],
			["PATCH", `/api/sessions/${id}`, '{"name": ""}'],
			["PUT", "/api/sessions"],
			["POST", "/api/sessions/%2e%2e/messages", '{"content":"x"}'],
		];
		for (const [method, urlPath, body] of requests) {
			const result = await call(method, urlPath, body);
			expect(result.status, `${method} ${urlPath.slice(0, 60)} ${body?.slice(0, 40) ?? ""}`).toBeLessThan(500);
		}
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});
});
