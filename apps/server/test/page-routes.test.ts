import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeTestServers, createSession, startTestServer, type TestServer } from "./support/test-server.js";

interface StoredRecord {
	seq: number;
	recordType: string;
	targetSeq?: number;
	label?: string;
}

interface RecordsPage {
	records: StoredRecord[];
	lastSeq: number;
	nextBefore?: number;
}

let server: TestServer;
beforeAll(async () => {
	server = await startTestServer();
});
afterAll(closeTestServers);

async function sessionWith(messages: number): Promise<string> {
	const { id } = await createSession(server);
	await server.runtime.store.append(
		id,
		Array.from({ length: messages }, (_, index) => ({
			recordType: "message" as const,
			role: index % 2 === 0 ? ("user" as const) : ("assistant" as const),
			content: [{ type: "text" as const, text: `**message ${index + 1}**` }],
		})),
	);
	return id;
}

async function json<T>(path: string, init?: Parameters<TestServer["api"]>[1]): Promise<{ status: number; body: T }> {
	const response = await server.api(path, init);
	return { status: response.status, body: (await response.json()) as T };
}

describe("the routes the web page uses", () => {
	it("GET records ?before pages backwards from the newest record, so a session opens at its latest", async () => {
		const id = await sessionWith(7);
		const { body: all } = await json<RecordsPage>(`/api/sessions/${id}/records?limit=1000`);
		const last = all.lastSeq;
		const newest = await json<RecordsPage>(`/api/sessions/${id}/records?before=${last + 1}&limit=3`);
		expect(newest.body.records.map((record) => record.seq)).toEqual([last - 2, last - 1, last]);
		expect(newest.body.nextBefore).toBe(last - 2);
		const older = await json<RecordsPage>(`/api/sessions/${id}/records?before=${newest.body.nextBefore}&limit=1000`);
		expect(older.body.records.map((record) => record.seq)).toEqual(
			Array.from({ length: last - 3 }, (_, index) => index + 1),
		);
		expect(older.body.nextBefore).toBeUndefined();
		const beyond = await json<RecordsPage>(`/api/sessions/${id}/records?before=2000000000&limit=2`);
		expect(beyond.body.records.map((record) => record.seq)).toEqual([last - 1, last]);
		const both = await server.api(`/api/sessions/${id}/records?before=3&after=1`);
		expect(both.status).toBe(400);
	});

	it("GET /api/models lists the demo model first and names the server's default", async () => {
		const { status, body } = await json<{ default: string; models: Array<{ name: string }>; unconfigured: string[] }>(
			"/api/models",
		);
		expect(status).toBe(200);
		expect(body.models[0]?.name).toBe("demo");
		expect(body.default).toBe("demo");
		expect(Array.isArray(body.unconfigured)).toBe(true);
	});

	it.skipIf(Boolean(process.env.ANTHROPIC_API_KEY || process.env.ANTHROPIC_OAUTH_TOKEN))(
		"a send to a model whose provider has no API key is a 400 that says what to do, and stores nothing",
		async () => {
			const id = await sessionWith(0);
			const before = await json<RecordsPage>(`/api/sessions/${id}/records`);
			const { status, body } = await json<{ error: { code: string; message: string } }>(
				`/api/sessions/${id}/messages`,
				{ method: "POST", json: { content: "hello", model: "anthropic/claude-sonnet-4-5" } },
			);
			expect(status).toBe(400);
			expect(body.error.code).toBe("MODEL_NOT_CONFIGURED");
			expect(body.error.message).toMatch(/no API key for anthropic.*ANTHROPIC_API_KEY.*demo/);
			const after = await json<RecordsPage>(`/api/sessions/${id}/records`);
			expect(after.body.lastSeq).toBe(before.body.lastSeq);
		},
	);

	it("POST labels labels a record, an empty label clears it, an unknown record is a 400", async () => {
		const id = await sessionWith(2);
		const labelled = await server.api(`/api/sessions/${id}/labels`, {
			method: "POST",
			json: { targetSeq: 1, label: "start" },
		});
		expect(labelled.status).toBe(200);
		const cleared = await server.api(`/api/sessions/${id}/labels`, {
			method: "POST",
			json: { targetSeq: 1, label: "" },
		});
		expect(cleared.status).toBe(200);
		const { body } = await json<RecordsPage>(`/api/sessions/${id}/records`);
		const labels = body.records.filter((record) => record.recordType === "label");
		expect(labels.map((record) => [record.targetSeq, record.label ?? ""])).toEqual([
			[1, "start"],
			[1, ""],
		]);
		const unknown = await server.api(`/api/sessions/${id}/labels`, {
			method: "POST",
			json: { targetSeq: 999, label: "x" },
		});
		expect(unknown.status).toBe(400);
	});

	it("GET export streams the session as a download in each format; HTML renders the Markdown", async () => {
		const id = await sessionWith(2);
		for (const [format, type] of [
			["md", "text/markdown"],
			["html", "text/html"],
			["jsonl", "application/x-ndjson"],
			["pi", "application/x-ndjson"],
		] as const) {
			const response = await server.api(`/api/sessions/${id}/export?format=${format}`);
			expect(response.status, format).toBe(200);
			expect(response.headers.get("content-type")).toContain(type);
			expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="session-/);
			const text = await response.text();
			if (format === "html") expect(text).toContain("<strong>message 1</strong>");
			if (format === "jsonl") expect(text.trim().split("\n").length).toBeGreaterThanOrEqual(2);
		}
		const bad = await server.api(`/api/sessions/${id}/export?format=docx`);
		expect(bad.status).toBe(400);
		const missing = await server.api("/api/sessions/01ARZ3NDEKTSV4RRFFQ69G5FAV/export?format=md");
		expect(missing.status).toBe(404);
	});
});
