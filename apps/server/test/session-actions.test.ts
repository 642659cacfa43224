import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeTestServers, createSession, startTestServer, type TestServer } from "./support/test-server.js";

interface StoredRecord {
	seq: number;
	recordType: string;
	role?: string;
	parentSeq?: number | null;
	content?: Array<{ type: string; text?: string }>;
}

let server: TestServer;
beforeAll(async () => {
	server = await startTestServer();
});
afterAll(closeTestServers);

async function say(id: string, content: string): Promise<StoredRecord[]> {
	const response = await server.api(`/api/sessions/${id}/messages?wait=1`, { method: "POST", json: { content } });
	expect(response.status).toBe(200);
	return ((await response.json()) as { records: StoredRecord[] }).records;
}

async function records(
	id: string,
	query = "",
): Promise<{ records: StoredRecord[]; nextAfter?: number; lastSeq: number }> {
	const response = await server.api(`/api/sessions/${id}/records${query}`);
	expect(response.status).toBe(200);
	return (await response.json()) as { records: StoredRecord[]; nextAfter?: number; lastSeq: number };
}

describe("records, context, compact, fork, branch", () => {
	it("GET records pages by seq with ?after and ?limit", async () => {
		const session = await createSession(server);
		for (const question of ["one", "two", "three"]) await say(session.id, question);
		const all = await records(session.id);
		expect(all.records.map((record) => record.seq)).toEqual(
			Array.from({ length: all.lastSeq }, (_, index) => index + 1),
		);
		const first = await records(session.id, "?limit=2");
		expect(first.records.map((record) => record.seq)).toEqual([1, 2]);
		expect(first.nextAfter).toBe(2);
		const rest = await records(session.id, `?after=${first.nextAfter}&limit=1000`);
		expect(rest.records[0]?.seq).toBe(3);
		expect(rest.nextAfter).toBeUndefined();
		const none = await records(session.id, `?after=${all.lastSeq}`);
		expect(none.records).toEqual([]);
	});

	it("GET records with a negative or non-numeric ?after is a 400", async () => {
		const session = await createSession(server);
		for (const query of ["?after=-1", "?after=abc", "?limit=0", "?limit=100000"]) {
			const response = await server.api(`/api/sessions/${session.id}/records${query}`);
			expect(response.status, query).toBe(400);
		}
	});

	it("GET context shows what the LLM sees with a token estimate and the model's window", async () => {
		const session = await createSession(server, { systemPromptOverride: "Answer in French." });
		await say(session.id, "Bonjour");
		const response = await server.api(`/api/sessions/${session.id}/context`);
		expect(response.status).toBe(200);
		const view = (await response.json()) as {
			model: string;
			contextWindow: number;
			context: { messages: Array<{ role: string }>; estimatedTokens: number; systemPrompt?: string };
		};
		expect(view.model).toMatch(/^demo/);
		expect(view.contextWindow).toBeGreaterThan(0);
		expect(view.context.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
		expect(view.context.estimatedTokens).toBeGreaterThan(0);
		expect(view.context.systemPrompt).toBe("Answer in French.");
	});

	it("POST compact appends a compaction record; the context then starts with its summary", async () => {
		const session = await createSession(server);
		for (let i = 0; i < 4; i++) await say(session.id, `question number ${i} ${"padding ".repeat(40)}`);
		const response = await server.api(`/api/sessions/${session.id}/compact`, {
			method: "POST",
			json: { keepRecentTokens: 1 },
		});
		expect(response.status).toBe(200);
		const body = (await response.json()) as { compacted: boolean; record: { recordType: string; summary: string } };
		expect(body.compacted).toBe(true);
		expect(body.record.recordType).toBe("compaction");
		expect(body.record.summary).toContain("## Goal");
		const view = (await (await server.api(`/api/sessions/${session.id}/context`)).json()) as {
			context: { messages: Array<{ origin: string }> };
		};
		expect(view.context.messages[0]?.origin).toBe("compaction_summary");
	});

	it("POST compact on an empty session reports that nothing was compacted (an empty JSON body counts as {})", async () => {
		const session = await createSession(server);
		const response = await server.api(`/api/sessions/${session.id}/compact`, {
			method: "POST",
			headers: { "Content-Type": "application/json" },
		});
		expect(response.status).toBe(200);
		expect(((await response.json()) as { compacted: boolean }).compacted).toBe(false);
	});

	it("POST fork creates a new session holding the path up to atSeq", async () => {
		const session = await createSession(server);
		await say(session.id, "first");
		await say(session.id, "second");
		const response = await server.api(`/api/sessions/${session.id}/fork`, {
			method: "POST",
			json: { atSeq: 2, name: "fork of first" },
		});
		expect(response.status).toBe(201);
		const fork = (await response.json()) as { id: string; name: string; forkedFrom: { sessionId: string } };
		expect(fork.id).not.toBe(session.id);
		expect(fork.forkedFrom.sessionId).toBe(session.id);
		const forked = await records(fork.id);
		const texts = forked.records
			.filter((record) => record.recordType === "message")
			.map((record) => record.content?.[0]?.text ?? "");
		expect(texts).toHaveLength(2);
		expect(texts[0]).toBe("first");
	});

	it("POST branch moves the active leaf: the next message continues from atSeq", async () => {
		const session = await createSession(server);
		const firstTurn = await say(session.id, "first");
		await say(session.id, "second");
		const firstReply = firstTurn.filter((record) => record.recordType === "message").at(-1) as StoredRecord;
		const response = await server.api(`/api/sessions/${session.id}/branch`, {
			method: "POST",
			json: { atSeq: firstReply.seq },
		});
		expect(response.status).toBe(200);
		expect(((await response.json()) as { leafSeq: number }).leafSeq).toBe(firstReply.seq);
		const appended = await say(session.id, "another second");
		expect(appended[0]?.parentSeq).toBe(firstReply.seq);
		const view = (await (await server.api(`/api/sessions/${session.id}/context`)).json()) as {
			context: { messages: Array<{ content: Array<{ text?: string }> }> };
		};
		const texts = view.context.messages.map((message) => message.content[0]?.text ?? "");
		expect(texts).toContain("another second");
		expect(texts).not.toContain("second");
	});

	it("POST branch without atSeq, or to a seq that does not exist, is a 400", async () => {
		const session = await createSession(server);
		await say(session.id, "only");
		const missing = await server.api(`/api/sessions/${session.id}/branch`, { method: "POST", json: {} });
		expect(missing.status).toBe(400);
		const beyond = await server.api(`/api/sessions/${session.id}/branch`, { method: "POST", json: { atSeq: 999 } });
		expect(beyond.status).toBe(400);
	});
});
