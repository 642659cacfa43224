import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { AgentSessions } from "@agent/session";
import { parseConfig } from "@agent/session/config";
import type { SessionStore } from "@agent/session-format";
import { createFileStore } from "@agent/session-fs";
import { openPgStore } from "@agent/session-pg";
import { createTestDatabase, findTestPostgres, type TestDatabase } from "@agent/session-pg/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server.js";

const pgServer = await findTestPostgres();

/** A store of each kind, and how to throw it away. */
const STORES: Array<{ name: string; open(home: string): Promise<{ store: SessionStore; drop(): Promise<void> }> }> = [
	{
		name: "the file store",
		async open(home) {
			return { store: createFileStore({ home }), drop: async () => {} };
		},
	},
	...(pgServer === undefined
		? []
		: [
				{
					name: "PostgreSQL",
					async open() {
						const database: TestDatabase = await createTestDatabase(pgServer, "agent_text_rules");
						const store = await openPgStore({ url: database.url });
						return {
							store,
							async drop() {
								await store.close();
								await database.drop();
							},
						};
					},
				},
			]),
];

/**
 * Issue 29: over HTTP, PostgreSQL answered text the file store took with 500s ("check that
 * PostgreSQL is reachable") and failed a turn whose first message put an emoji across a cut. The
 * same requests, on each store, must get the same answers.
 */
describe.each(STORES)("text over HTTP on $name (issue 29)", ({ open }) => {
	let server: RunningServer;
	let home: string;
	let drop: () => Promise<void>;
	beforeAll(async () => {
		home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-server-text-"));
		const opened = await open(home);
		drop = opened.drop;
		const runtime = await AgentSessions.open({ store: opened.store, config: parseConfig("default_model: demo\n") });
		server = await startServer({ runtime, port: 0, env: {}, log: () => {} });
	});
	afterAll(async () => {
		await server?.close();
		await drop?.();
		await fs.rm(home, { recursive: true, force: true });
	});

	async function call(method: string, urlPath: string, body?: string) {
		const response = await fetch(`${server.url}${urlPath}`, {
			method,
			...(body !== undefined ? { headers: { "Content-Type": "application/json" }, body } : {}),
		});
		const text = await response.text();
		return {
			status: response.status,
			body: (text ? JSON.parse(text) : {}) as Record<string, unknown> & { error?: { code: string; message: string } },
		};
	}

	it("text no store can hold is a 400 naming the field, never a 500: U+0000 in a name, a lone surrogate anywhere", async () => {
		const created = await call("POST", "/api/sessions", "{}");
		const id = created.body.id as string;
		const cases: Array<[string, string, string | undefined, string]> = [
			["POST", "/api/sessions", JSON.stringify({ name: "a\u0000b" }), "name"],
			["POST", "/api/sessions", JSON.stringify({ identityKey: "k\u0000" }), "identityKey"],
			["POST", "/api/sessions", JSON.stringify({ systemPromptOverride: "a\u0000b" }), "systemPromptOverride"],
			["POST", "/api/sessions", '{"name": "x\\ud83d"}', "name"],
			["POST", "/api/sessions", '{"systemPromptOverride": "x\\ud83d"}', "systemPromptOverride"],
			["POST", `/api/sessions/${id}/messages`, '{"content": "x\\ud83dy"}', "content.0.text"],
			["PATCH", `/api/sessions/${id}`, JSON.stringify({ name: "a\u0000b" }), "name"],
			["POST", "/api/identities/a%00b/messages", JSON.stringify({ content: "hi" }), "identityKey"],
			["GET", "/api/sessions?search=a%00b", undefined, "search"],
			["GET", "/api/sessions?identity=k%00", undefined, "identityKey"],
			["GET", "/api/search?q=x&cwd=%2Fsrv%00", undefined, "cwd"],
		];
		for (const [method, urlPath, body, field] of cases) {
			const result = await call(method, urlPath, body);
			expect(result.status, `${method} ${urlPath} ${body}`).toBe(400);
			expect(result.body.error?.code, `${urlPath} ${body}`).toMatch(/^INVALID_/);
			expect(result.body.error?.message, `${urlPath} ${body}`).toContain(field);
			expect(result.body.error?.message).not.toMatch(/reachable/);
		}
	});

	it("what every store holds is taken: an emoji across the name's and the preview's cut, U+0000 in message text, a CJK identity key as long as the API takes", async () => {
		const first = `${"a".repeat(59)}😀${"b".repeat(58)}😀bbb`;
		const created = await call("POST", "/api/sessions", "{}");
		const id = created.body.id as string;
		const sent = await call("POST", `/api/sessions/${id}/messages?wait=1`, JSON.stringify({ content: first }));
		expect(sent.status).toBe(200);
		const session = await call("GET", `/api/sessions/${id}`);
		expect(session.body.name).toBe(`${"a".repeat(59)}…`);
		expect(session.body.firstMessage).toBe(`${"a".repeat(59)}😀${"b".repeat(58)}…`);

		const nul = await call("POST", `/api/sessions/${id}/messages?wait=1`, JSON.stringify({ content: "a\u0000b" }));
		expect(nul.status).toBe(200);
		const found = await call("GET", `/api/search?q=${encodeURIComponent("a\u0000b")}`);
		expect((found.body.hits as Array<{ sessionId: string }>).map((hit) => hit.sessionId)).toContain(id);

		// 500 characters: the API's cap (the stores take 1,024: the differential test's case).
		const key = "日".repeat(500);
		const identity = await call("POST", "/api/sessions", JSON.stringify({ identityKey: key }));
		expect(identity.status).toBe(201);
		const listed = await call("GET", `/api/sessions?identity=${encodeURIComponent(key)}`);
		expect((listed.body.sessions as Array<{ id: string }>).map((entry) => entry.id)).toEqual([identity.body.id]);
	});
});
