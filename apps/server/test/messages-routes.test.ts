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
