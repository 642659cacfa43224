import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventClient } from "./support/event-client.js";
import { closeTestServers, createSession, startTestServer, type TestServer } from "./support/test-server.js";

interface StoredRecord {
	seq: number;
	recordType: string;
	role?: string;
	parentSeq?: number | null;
	content?: Array<{ text?: string }>;
}

let server: TestServer;
beforeAll(async () => {
	server = await startTestServer();
});
afterAll(closeTestServers);

const text = (record: StoredRecord) => (record.content ?? []).map((block) => block.text ?? "").join("");

describe("S7.10: concurrent sends to one session queue", () => {
	it("ten concurrent sends run one at a time in arrival order: every question is followed by its own answer", async () => {
		const session = await createSession(server);
		const client = await EventClient.connect(`${server.url.replace(/^http/, "ws")}/api/sessions/${session.id}/events`);
		const questions = Array.from({ length: 10 }, (_, index) => `question ${index}`);
		const responses = await Promise.all(
			questions.map((content) =>
				server.api(`/api/sessions/${session.id}/messages`, { method: "POST", json: { content } }),
			),
		);
		expect(responses.map((response) => response.status)).toEqual(questions.map(() => 202));
		const positions = await Promise.all(
			responses.map(async (response) => ((await response.json()) as { position: number }).position),
		);
		expect(positions.filter((position) => position > 0).length).toBeGreaterThan(0);
		expect(new Set(positions).size).toBe(positions.length);
		await server.runtime.idle();

		const page = (await (await server.api(`/api/sessions/${session.id}/records?limit=1000`)).json()) as {
			records: StoredRecord[];
		};
		const messages = page.records.filter((record) => record.recordType === "message");
		expect(messages).toHaveLength(20);
		const asked: string[] = [];
		for (let i = 0; i < messages.length; i += 2) {
			const question = messages[i] as StoredRecord;
			const answer = messages[i + 1] as StoredRecord;
			expect(question.role).toBe("user");
			expect(answer.role).toBe("assistant");
			expect(text(answer)).toContain(`"${text(question)}"`);
			asked.push(text(question));
		}
		expect(asked.sort()).toEqual([...questions].sort());

		// The event stream shows no overlap either: each turn completes before the next starts.
		await client.waitFor(() => client.ofType("turn.completed").length === 10);
		const lifecycle = client.messages.filter(
			(message) => message.type === "turn.started" || message.type === "turn.completed",
		);
		for (let i = 0; i < lifecycle.length; i += 2) {
			expect(lifecycle[i]?.type).toBe("turn.started");
			expect(lifecycle[i + 1]?.type).toBe("turn.completed");
			expect(lifecycle[i + 1]?.turnId).toBe(lifecycle[i]?.turnId);
		}
		await client.close();
	});

	it("?wait=1 sends racing on one session each get their own turn's records back", async () => {
		const session = await createSession(server);
		const results = await Promise.all(
			[0, 1, 2, 3, 4].map(async (index) => {
				const response = await server.api(`/api/sessions/${session.id}/messages?wait=1`, {
					method: "POST",
					json: { content: `racer ${index}` },
				});
				expect(response.status).toBe(200);
				return { index, body: (await response.json()) as { records: StoredRecord[] } };
			}),
		);
		for (const { index, body } of results) {
			const messages = body.records.filter((record) => record.recordType === "message");
			expect(text(messages[0] as StoredRecord)).toBe(`racer ${index}`);
			expect(text(messages[1] as StoredRecord)).toContain(`racer ${index}`);
			expect(messages[1]?.seq).toBe((messages[0]?.seq ?? 0) + 1);
		}
	});
});
