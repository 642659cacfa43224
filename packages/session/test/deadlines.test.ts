// Deadlines: a model provider that never answers ends at the deadline. The provider here is real
// HTTP: pi-ai's OpenAI-compatible client against a local server that takes every request and
// never answers it (or answers a little, then stalls), so what is stopped is a real request.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
	type Api,
	createAssistantMessageEventStream,
	type Model,
	registerApiProvider,
	unregisterApiProviders,
} from "@mariozechner/pi-ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResolvedModel } from "../src/index.js";
import { resolveModel as resolveByName } from "../src/models.js";
import { openRuntime, tempHome } from "./helpers.js";

process.env.AGENT_DEMO_TOKENS_PER_SECOND = "Infinity";

let server: Server;
let baseUrl = "";
/** Requests the server took, by path: a retry would show as a second one. */
const requests: string[] = [];
/** The open responses, ended when the test ends. */
const open = new Set<ServerResponse>();

beforeAll(async () => {
	server = createServer((request: IncomingMessage, response: ServerResponse) => {
		requests.push(request.url ?? "");
		open.add(response);
		request.resume();
		// "/stall/…": the headers and one piece of the reply, then nothing more.
		if (request.url?.startsWith("/stall/")) {
			response.writeHead(200, { "content-type": "text/event-stream" });
			const chunk = {
				id: "c1",
				object: "chat.completion.chunk",
				created: 1,
				model: "hang",
				choices: [{ index: 0, delta: { role: "assistant", content: "Partial answer" }, finish_reason: null }],
			};
			response.write(`data: ${JSON.stringify(chunk)}\n\n`);
		}
		// Anything else: never a byte.
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	for (const response of open) response.destroy();
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

/** A model served by the local server (path `prefix`), resolved with an API key as a real one is. */
function hangingModel(prefix: string): (name: string) => ResolvedModel {
	const model: Model<Api> = {
		id: "hang",
		name: "A provider that never answers",
		api: "openai-completions",
		provider: "local-hang",
		baseUrl: `${baseUrl}${prefix}`,
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 32_000,
		maxTokens: 1_000,
	};
	return (name) => (name === "local-hang/hang" ? { name, model, apiKey: "test-key" } : resolveByName(name));
}

describe("deadlines", () => {
	it("a model call with no progress ends at model_call_timeout: the turn is timed_out, not retried, and the queue moves on", async () => {
		const runtime = await openRuntime(await tempHome(), {
			resolveModel: hangingModel("/silent/v1"),
			modelCallTimeoutMs: 1_000,
		});
		const session = await runtime.create({ model: "local-hang/hang" });
		const before = requests.length;
		const hung = runtime.send(session.id, "hello?");
		const next = runtime.send(session.id, "and now?", { model: "demo" });
		await expect(hung).rejects.toMatchObject({
			code: "TIMED_OUT",
			message: expect.stringContaining("model_call_timeout_seconds"),
		});
		await next;
		expect(requests.length - before, "one request: the deadline stops the client's retries too").toBe(1);
		const turns = await runtime.turns(session.id);
		expect(turns.map((turn) => turn.outcome)).toEqual(["timed_out", "completed"]);
		expect(turns[0]?.error).toMatchObject({ code: "TIMED_OUT" });
	});

	it("a turn ends at turn_timeout, whatever it waits for; what it stored stays stored", async () => {
		const runtime = await openRuntime(await tempHome(), {
			resolveModel: hangingModel("/silent/v1"),
			turnTimeoutMs: 1_500,
			modelCallTimeoutMs: Number.POSITIVE_INFINITY,
		});
		const session = await runtime.create({ model: "local-hang/hang" });
		await expect(runtime.send(session.id, "hello?")).rejects.toMatchObject({
			code: "TIMED_OUT",
			message: expect.stringContaining("turn_timeout_seconds"),
		});
		const opened = await runtime.open(session.id);
		expect(opened.context.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
		expect(opened.context.messages[1]).toMatchObject({ stopReason: "aborted" });
		expect((await runtime.turns(session.id)).map((turn) => turn.outcome)).toEqual(["timed_out"]);
		await expect(runtime.send(session.id, "still there?", { model: "demo" })).resolves.toBeDefined();
	});

	it("a reply that stalls midway keeps what came, and the turn is timed_out", async () => {
		const runtime = await openRuntime(await tempHome(), {
			resolveModel: hangingModel("/stall/v1"),
			modelCallTimeoutMs: 1_000,
		});
		const session = await runtime.create({ model: "local-hang/hang" });
		const deltas: string[] = [];
		runtime.subscribe((event) => {
			if (event.type === "turn.delta") deltas.push(event.delta);
		});
		await expect(runtime.send(session.id, "tell me")).rejects.toMatchObject({ code: "TIMED_OUT" });
		expect(deltas.join("")).toBe("Partial answer");
		expect((await runtime.turns(session.id)).map((turn) => turn.outcome)).toEqual(["timed_out"]);
	});

	it("a provider that ignores the abort is given up on: the turn still ends, timed_out", async () => {
		// A provider whose stream never ends, not even when its signal aborts.
		registerApiProvider(
			{
				api: "never-ends",
				stream: () => createAssistantMessageEventStream(),
				streamSimple: () => createAssistantMessageEventStream(),
			},
			"deadlines-test",
		);
		const model: Model<Api> = {
			...(hangingModel("/unused")("local-hang/hang").model as Model<Api>),
			api: "never-ends",
		};
		const runtime = await openRuntime(await tempHome(), {
			resolveModel: (name) => (name === "local/never" ? { name, model, apiKey: "k" } : resolveByName(name)),
			modelCallTimeoutMs: 300,
		});
		const session = await runtime.create({ model: "local/never" });
		await expect(runtime.send(session.id, "anyone?")).rejects.toMatchObject({ code: "TIMED_OUT" });
		const opened = await runtime.open(session.id);
		expect(opened.context.messages[1]).toMatchObject({
			stopReason: "aborted",
			errorMessage: expect.stringContaining("did not end the call"),
		});
		unregisterApiProviders("deadlines-test");
	});

	it("a summarizer call with no progress is stopped too, and retried as compaction retries a provider error", async () => {
		const runtime = await openRuntime(await tempHome(), {
			resolveModel: hangingModel("/silent/v1"),
			modelCallTimeoutMs: 300,
		});
		const session = await runtime.create({ model: "demo" });
		for (const text of ["one", "two", "three"]) await runtime.send(session.id, text);
		const before = requests.length;
		const error = await runtime
			.compact(session.id, { model: "local-hang/hang", keepRecentTokens: 1 })
			.catch((caught: Error) => caught);
		expect(error).toMatchObject({ code: "COMPACTION_FAILED", message: expect.stringContaining("no progress") });
		expect(requests.length - before, "the first try and compaction's three retries").toBe(4);
		expect((await runtime.metadata(session.id)).compactionCount ?? 0).toBe(0);
	});

	it("config.yaml's turn_timeout_seconds and model_call_timeout_seconds set them", async () => {
		const { parseConfig } = await import("../src/config-file.js");
		const config = parseConfig("turn_timeout_seconds: 30\nmodel_call_timeout_seconds: 1.5\n");
		expect(config).toMatchObject({ turnTimeoutMs: 30_000, modelCallTimeoutMs: 1_500 });
		expect(parseConfig("")).toMatchObject({ turnTimeoutMs: 600_000, modelCallTimeoutMs: 120_000 });
		expect(() => parseConfig("turn_timeout_seconds: 0\n")).toThrow(/turn_timeout_seconds/);
	});
});
