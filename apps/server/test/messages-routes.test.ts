import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeTestServers, createSession, startTestServer, type TestServer } from "./support/test-server.js";

interface Record {
	seq: number;
	recordType: string;
	role?: string;
	content?: Array<{ type: string; text?: string }>;
}

let server: TestServer;
beforeAll(async () => {
	server = await startTestServer();
});
afterAll(closeTestServers);

function text(record: Record | undefined): string {
	return (record?.content ?? []).map((block) => block.text ?? "").join("");
}

describe("POST /api/sessions/:id/messages", () => {
	it("?wait=1 answers 200 once the turn is done, with the records it appended", async () => {
		const session = await createSession(server);
		const response = await server.api(`/api/sessions/${session.id}/messages?wait=1`, {
			method: "POST",
			json: { content: "What pods are running?" },
		});
		expect(response.status).toBe(200);
		const body = (await response.json()) as { turnId: string; records: Record[] };
		expect(body.turnId).toBeTruthy();
		const messages = body.records.filter((record) => record.recordType === "message");
		expect(messages.map((record) => record.role)).toEqual(["user", "assistant"]);
		expect(text(messages[0])).toBe("What pods are running?");
		expect(text(messages[1])).toContain("What pods are running?");
	});

	it("without wait answers 202 with the queue position, and the turn runs", async () => {
		const session = await createSession(server);
		const response = await server.api(`/api/sessions/${session.id}/messages`, {
			method: "POST",
			json: { content: [{ type: "text", text: "block content" }] },
		});
		expect(response.status).toBe(202);
		const body = (await response.json()) as { turnId: string; position: number };
		expect(body.position).toBe(0);
		await server.runtime.idle();
		const records = (await (await server.api(`/api/sessions/${session.id}/records`)).json()) as { records: Record[] };
		const messages = records.records.filter((record) => record.recordType === "message");
		expect(messages.map((record) => record.role)).toEqual(["user", "assistant"]);
	});

	it("an empty message, a wrong content type or an unknown model is a 400 with the reason", async () => {
		const session = await createSession(server);
		const cases: Array<[unknown, string]> = [
			[{ content: "" }, "content"],
			[{ content: 42 }, "content"],
			[{ content: [{ type: "video", url: "x" }] }, "content"],
			[{}, "content"],
			[{ content: "hi", model: "nowhere/nothing" }, "nowhere"],
		];
		for (const [json, mentioned] of cases) {
			const response = await server.api(`/api/sessions/${session.id}/messages`, { method: "POST", json });
			expect(response.status, JSON.stringify(json)).toBe(400);
			const body = (await response.json()) as { error: { message: string } };
			expect(body.error.message).toContain(mentioned);
		}
		const records = (await (await server.api(`/api/sessions/${session.id}/records`)).json()) as { records: Record[] };
		expect(records.records).toHaveLength(0);
	});

	it("?wait=maybe is a 400", async () => {
		const session = await createSession(server);
		const response = await server.api(`/api/sessions/${session.id}/messages?wait=maybe`, {
			method: "POST",
			json: { content: "hi" },
		});
		expect(response.status).toBe(400);
		expect(((await response.json()) as { error: { code: string } }).error.code).toBe("INVALID_QUERY");
	});
});

describe("POST /api/sessions/:id/messages with parentSeq (the branch on screen)", () => {
	async function say(id: string, content: string, extra: object = {}) {
		const response = await server.api(`/api/sessions/${id}/messages?wait=1`, {
			method: "POST",
			json: { content, ...extra },
		});
		expect(response.status).toBe(200);
		return ((await response.json()) as { records: Array<Record & { parentSeq?: number }> }).records;
	}

	it("continues the record it names: the message hangs from it and the reply answers that branch", async () => {
		const session = await createSession(server);
		const [, firstReply] = (await say(session.id, "first")).filter((r) => r.recordType === "message");
		await say(session.id, "second");
		const records = await say(session.id, "back to the first", { parentSeq: firstReply?.seq });
		const [user, reply] = records.filter((r) => r.recordType === "message");
		expect(user?.parentSeq).toBe(firstReply?.seq);
		expect(text(reply)).toContain("turn 2 of this conversation");
		const context = (await (await server.api(`/api/sessions/${session.id}/context`)).json()) as {
			context: { messages: Array<{ content: Array<{ text?: string }> }> };
		};
		const texts = context.context.messages.map((m) => m.content.map((b) => b.text ?? "").join(""));
		expect(texts.some((t) => t.includes("second"))).toBe(false);
	});

	it("refuses a seq that is not a message of the session, or parentSeq on an identity send, storing nothing", async () => {
		const session = await createSession(server);
		await say(session.id, "only");
		const { records } = (await (await server.api(`/api/sessions/${session.id}/records`)).json()) as {
			records: Record[];
		};
		const turnSeq = records.find((r) => r.recordType === "turn")?.seq;
		const lastSeq = Math.max(...records.map((r) => r.seq));
		for (const [parentSeq, reason] of [
			[turnSeq, "belongs to no branch"],
			[lastSeq + 10, "no readable record"],
			[0, "parentSeq"],
			["3", "parentSeq"],
		] as const) {
			const response = await server.api(`/api/sessions/${session.id}/messages`, {
				method: "POST",
				json: { content: "nope", parentSeq },
			});
			expect(response.status, String(parentSeq)).toBe(400);
			expect(((await response.json()) as { error: { message: string } }).error.message).toContain(reason);
		}
		const identity = await server.api("/api/identities/someone/messages", {
			method: "POST",
			json: { content: "nope", parentSeq: 1 },
		});
		expect(identity.status).toBe(400);
		expect((await server.runtime.metadata(session.id)).lastSeq).toBe(lastSeq);
	});
});
