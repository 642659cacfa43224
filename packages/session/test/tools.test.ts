// Tools offline: the demo model calls a tool it is asked to use, so a team can run its
// ToolExecutor with no network; tools are given to the runtime, per session or per send.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { StoredRecord } from "@agent/session-format";
import { Type } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import type { Tool, ToolExecutor } from "../src/index.js";
import { openRuntime, tempHome } from "./helpers.js";

process.env.AGENT_DEMO_TOKENS_PER_SECOND = "Infinity";

/** A real `read` tool over a directory: its schema written by hand, as plain JSON Schema. */
function readTool(dir: string, calls: string[] = []): ToolExecutor {
	return {
		tools: [
			{
				name: "read",
				description: "Read a file of the project",
				parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
			},
		],
		async execute(call) {
			const file = String(call.arguments.path);
			calls.push(file);
			return { content: await readFile(path.join(dir, file), "utf8") };
		},
	};
}

async function records(runtime: Awaited<ReturnType<typeof openRuntime>>, id: string): Promise<StoredRecord[]> {
	const out: StoredRecord[] = [];
	for await (const record of runtime.store.read(id)) out.push(record);
	return out;
}

describe("the demo model and tools", () => {
	it('calls a tool it is asked to use ("read package.json" → read { path: "package.json" }), then says what came back', async () => {
		const dir = await tempHome();
		await writeFile(path.join(dir, "package.json"), '{ "name": "offline-demo" }\n');
		const runtime = await openRuntime(await tempHome(), { toolExecutor: readTool(dir) });
		const session = await runtime.create({ model: "demo" });
		const turn = await runtime.send(session.id, "read package.json");
		const messages = turn.records.filter((record) => record.recordType === "message");
		expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		const [, call, result, answer] = messages;
		expect(call?.content).toMatchObject([{ type: "toolCall", name: "read", arguments: { path: "package.json" } }]);
		expect(call).toMatchObject({ stopReason: "toolUse" });
		expect(result).toMatchObject({
			toolName: "read",
			isError: false,
			content: [{ text: '{ "name": "offline-demo" }\n' }],
		});
		expect(answer?.content).toMatchObject([{ type: "text", text: expect.stringContaining("offline-demo") }]);
		expect((await runtime.toolLog(session.id)).map((execution) => execution.outcome)).toEqual(["ok"]);
	});

	it("a tool that fails is an error result the model answers, and the turn completes", async () => {
		const dir = await tempHome();
		const runtime = await openRuntime(await tempHome(), { toolExecutor: readTool(dir) });
		const session = await runtime.create({ model: "demo" });
		const turn = await runtime.send(session.id, "read missing.txt");
		const result = turn.records.find((record) => record.recordType === "message" && record.role === "toolResult");
		expect(result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("ENOENT") }] });
		expect((await runtime.turns(session.id)).map((record) => record.outcome)).toEqual(["completed"]);
	});

	it("without a tool named in the request, or without tools, it answers in text", async () => {
		const runtime = await openRuntime(await tempHome(), { toolExecutor: readTool(await tempHome()) });
		const session = await runtime.create({ model: "demo" });
		const turn = await runtime.send(session.id, "what is the weather like? (already) reading nothing");
		expect(turn.records.filter((record) => record.recordType === "message").map((m) => m.role)).toEqual([
			"user",
			"assistant",
		]);
	});
});

describe("tools per session and per send", () => {
	it("a function picks each session's tools: only the session it gives tools to calls them", async () => {
		const dir = await tempHome();
		await writeFile(path.join(dir, "notes.txt"), "hello");
		const calls: string[] = [];
		const withTools = new Set<string>();
		const runtime = await openRuntime(await tempHome(), {
			toolExecutor: (sessionId) => (withTools.has(sessionId) ? readTool(dir, calls) : undefined),
		});
		const tooled = await runtime.create({ model: "demo" });
		const plain = await runtime.create({ model: "demo" });
		withTools.add(tooled.id);
		await runtime.send(plain.id, "read notes.txt");
		await runtime.send(tooled.id, "read notes.txt");
		expect(calls).toEqual(["notes.txt"]);
		expect((await runtime.toolLog(plain.id)).length).toBe(0);
		expect((await runtime.toolLog(tooled.id)).length).toBe(1);
	});

	it("a send's own tools are used for that turn instead of the runtime's", async () => {
		const dir = await tempHome();
		await writeFile(path.join(dir, "a.txt"), "from the send's tools");
		const runtimeCalls: string[] = [];
		const sendCalls: string[] = [];
		const runtime = await openRuntime(await tempHome(), { toolExecutor: readTool(dir, runtimeCalls) });
		const session = await runtime.create({ model: "demo" });
		await runtime.send(session.id, "read a.txt", { toolExecutor: readTool(dir, sendCalls) });
		await runtime.send(session.id, "read a.txt");
		expect(sendCalls).toEqual(["a.txt"]);
		expect(runtimeCalls).toEqual(["a.txt"]);
		const texts = (await records(runtime, session.id)).flatMap((record) =>
			record.recordType === "message" && record.role === "toolResult" ? record.content : [],
		);
		expect(texts).toEqual([
			{ type: "text", text: "from the send's tools" },
			{ type: "text", text: "from the send's tools" },
		]);
	});

	it("a Tool's parameters may be built with pi-ai's Type (typebox) as well", () => {
		const tool: Tool = { name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) };
		expect(tool.parameters).toMatchObject({ type: "object", required: ["path"] });
	});
});
