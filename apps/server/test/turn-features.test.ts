import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeTestServers, createSession, startTestServer, type TestServer } from "./support/test-server.js";

// A slow demo model, so a test can cancel a reply while it streams (read when the model registers).
process.env.AGENT_DEMO_TOKENS_PER_SECOND = "25";

interface RecordJson {
	seq: number;
	recordType: string;
	role?: string;
	outcome?: string;
	thinkingLevel?: string;
	parentSeq?: number | null;
}

let server: TestServer;
beforeAll(async () => {
	server = await startTestServer({ configYaml: "compaction:\n  prune_tool_outputs: 100\n  prune_minimum_tokens: 0\n" });
});
afterAll(closeTestServers);

async function records(id: string): Promise<RecordJson[]> {
	const response = await server.api(`/api/sessions/${id}/records`);
	return ((await response.json()) as { records: RecordJson[] }).records;
}

function onDisk(id: string): boolean {
	return fs.existsSync(path.join(server.home, "sessions", id));
}

/** Resolves at the first streamed delta of a session's turn. */
function firstDelta(sessionId: string): Promise<void> {
	return new Promise((resolve) => {
		const unsubscribe = server.runtime.subscribe(
			(event) => {
				if (event.type !== "turn.delta") return;
				unsubscribe();
				resolve();
			},
			{ sessionId },
		);
	});
}

async function send(id: string, body: object): Promise<Response> {
	return server.api(`/api/sessions/${id}/messages?wait=1`, { method: "POST", json: body });
}

describe("deferred sessions", () => {
	it("POST /api/sessions {deferred:true} writes nothing until the first reply", async () => {
		const session = await createSession(server, { deferred: true });
		expect(onDisk(session.id)).toBe(false);
		expect((await server.api(`/api/sessions/${session.id}`)).status).toBe(200);
		expect((await send(session.id, { content: "first" })).status).toBe(200);
		expect(onDisk(session.id)).toBe(true);
	});

	it("a first turn cancelled before its reply leaves nothing behind", async () => {
		const session = await createSession(server, { deferred: true });
		const accepted = await server.api(`/api/sessions/${session.id}/messages`, {
			method: "POST",
			json: { content: "never answered" },
		});
		const { turnId } = (await accepted.json()) as { turnId: string };
		const streaming = firstDelta(session.id);
		await streaming;
		const cancel = await server.api(`/api/sessions/${session.id}/turns/${turnId}/cancel`, { method: "POST" });
		expect(cancel.status).toBe(202);
		await server.runtime.idle();
		expect(onDisk(session.id)).toBe(false);
		expect((await server.api(`/api/sessions/${session.id}`)).status).toBe(404);
	});
});

describe("cancelling turns", () => {
	it("cancels the running turn by id or as the session's running one; the session goes on", async () => {
		const session = await createSession(server);
		const idle = await server.api(`/api/sessions/${session.id}/cancel`, { method: "POST" });
		expect(await idle.json()).toMatchObject({ cancelled: false });
		const unknown = await server.api(`/api/sessions/${session.id}/turns/nope/cancel`, { method: "POST" });
		expect(unknown.status).toBe(404);

		const first = server.api(`/api/sessions/${session.id}/messages?wait=1`, {
			method: "POST",
			json: { content: "long one" },
		});
		await firstDelta(session.id);
		const running = await server.api(`/api/sessions/${session.id}/cancel`, { method: "POST" });
		expect(running.status).toBe(202);
		const failed = await first;
		expect(failed.status).toBe(409);
		expect(((await failed.json()) as { error: { code: string } }).error.code).toBe("TURN_CANCELLED");

		const second = server.api(`/api/sessions/${session.id}/messages`, { method: "POST", json: { content: "again" } });
		const { turnId } = (await (await second).json()) as { turnId: string };
		await firstDelta(session.id);
		expect((await server.api(`/api/sessions/${session.id}/turns/${turnId}`, { method: "DELETE" })).status).toBe(202);
		await server.runtime.idle();
		expect((await send(session.id, { content: "third" })).status).toBe(200);
		const outcomes = (await records(session.id)).flatMap((r) => (r.recordType === "turn" ? [r.outcome] : []));
		expect(outcomes).toEqual(["cancelled", "cancelled", "completed"]);
		const turns = (await (await server.api(`/api/sessions/${session.id}/turns`)).json()) as {
			turns: Array<{ turnId: string; outcome: string; durationMs: number }>;
		};
		expect(turns.turns.map((t) => t.outcome)).toEqual(["cancelled", "cancelled", "completed"]);
		expect(turns.turns[1]?.turnId).toBe(turnId);
	});
});

describe("identity-keyed sessions", () => {
	it("POST /api/identities/:key/messages continues the identity's session; ?identity= lists it", async () => {
		const key = encodeURIComponent("discord:#general/ana");
		const first = await server.api(`/api/identities/${key}/messages?wait=1`, {
			method: "POST",
			json: { content: "hi" },
		});
		expect(first.status).toBe(200);
		const a = (await first.json()) as { sessionId: string; created: boolean; identityKey: string };
		expect(a).toMatchObject({ created: true, identityKey: "discord:#general/ana" });
		const second = await server.api(`/api/identities/${key}/messages?wait=1`, {
			method: "POST",
			json: { content: "again" },
		});
		const b = (await second.json()) as { sessionId: string; created: boolean };
		expect(b).toMatchObject({ sessionId: a.sessionId, created: false });
		const listed = await server.api(`/api/sessions?identity=${key}`);
		const page = (await listed.json()) as { sessions: Array<{ id: string; identityKey: string }> };
		expect(page.sessions.map((s) => s.id)).toEqual([a.sessionId]);
		const created = await createSession(server, { identityKey: "other" });
		const others = (await (await server.api("/api/sessions?identity=other")).json()) as { sessions: unknown[] };
		expect(others.sessions).toHaveLength(1);
		expect(created.id).not.toBe(a.sessionId);
	});
});

describe("identity keys in the path are decoded strictly", () => {
	it("an invalid percent escape is a 400 that says so; %25 is a percent sign, its own identity", async () => {
		for (const bad of ["a%FFb", "a%G1b", "a%", "%ED%A0%80"]) {
			const response = await server.api(`/api/identities/${bad}/messages`, { method: "POST", json: { content: "hi" } });
			expect(response.status, bad).toBe(400);
			const body = (await response.json()) as { error: { code: string; message: string } };
			expect(body.error.code, bad).toBe("INVALID_ARGUMENT");
			expect(body.error.message, bad).toContain("invalid percent escape");
		}
		const response = await server.api("/api/identities/a%25FFb/messages?wait=1", {
			method: "POST",
			json: { content: "hi" },
		});
		expect(response.status).toBe(200);
		expect(await response.json()).toMatchObject({ identityKey: "a%FFb", created: true });
	});

	it("a key holding U+0000 is refused with a 400 that names it, on every store", async () => {
		const response = await server.api("/api/identities/a%00b/messages", { method: "POST", json: { content: "hi" } });
		expect(response.status).toBe(400);
		expect(((await response.json()) as { error: { message: string } }).error.message).toContain("identityKey");
	});
});

describe("thinking level, branch summaries, tools, pruning", () => {
	it("thinkingLevel on a message records the change; an unknown level is a 400", async () => {
		const session = await createSession(server);
		expect((await send(session.id, { content: "think", thinkingLevel: "low" })).status).toBe(200);
		const levels = (await records(session.id)).flatMap((r) =>
			r.recordType === "thinking_level_change" ? [r.thinkingLevel] : [],
		);
		expect(levels).toEqual(["low"]);
		expect((await send(session.id, { content: "x", thinkingLevel: "max" })).status).toBe(400);
	});

	it("POST .../branch {atSeq, summarize:true} writes a branch_summary the context carries", async () => {
		const session = await createSession(server);
		await send(session.id, { content: "way one" });
		await send(session.id, { content: "way two" });
		const response = await server.api(`/api/sessions/${session.id}/branch`, {
			method: "POST",
			json: { atSeq: 2, summarize: true },
		});
		expect(response.status).toBe(200);
		const summary = (await records(session.id)).find((r) => r.recordType === "branch_summary");
		expect(summary?.parentSeq).toBe(2);
		const context = (await (await server.api(`/api/sessions/${session.id}/context`)).json()) as {
			context: { messages: Array<{ origin: string }> };
		};
		expect(context.context.messages.map((m) => m.origin)).toEqual(["message", "message", "branch_summary"]);
	});

	it("GET .../tools lists tool executions; GET .../context says which old outputs are pruned", async () => {
		const session = await createSession(server);
		for (let i = 0; i < 4; i++) {
			await server.runtime.store.append(session.id, [
				{ recordType: "message", role: "user", content: [{ type: "text", text: `read f${i}` }] },
				{
					recordType: "message",
					role: "assistant",
					content: [{ type: "toolCall", id: `c${i}`, name: "read", arguments: { path: `f${i}` } }],
				},
				{
					recordType: "message",
					role: "toolResult",
					toolCallId: `c${i}`,
					toolName: "read",
					isError: i === 1,
					content: [{ type: "text", text: "data ".repeat(500) }],
				},
				{ recordType: "message", role: "assistant", content: [{ type: "text", text: "ok" }] },
			]);
		}
		const tools = (await (await server.api(`/api/sessions/${session.id}/tools`)).json()) as {
			executions: Array<{ toolCallId: string; outcome: string; durationMs: number }>;
		};
		expect(tools.executions.map((e) => [e.toolCallId, e.outcome])).toEqual([
			["c0", "ok"],
			["c1", "error"],
			["c2", "ok"],
			["c3", "ok"],
		]);
		const context = (await (await server.api(`/api/sessions/${session.id}/context`)).json()) as {
			context: { pruned?: { seqs: number[]; tokens: number } };
		};
		expect(context.context.pruned?.seqs).toEqual([3, 7]);
		expect(context.context.pruned?.tokens).toBeGreaterThan(0);
	});
});
