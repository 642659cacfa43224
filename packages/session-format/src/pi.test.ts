// The pi-ai glue with the real pi-ai (its faux provider, offline). This file also pins the types:
// `complete(model, { messages: toPiMessages(context) })` must typecheck under strict TypeScript.
import {
	type AssistantMessage,
	complete,
	fauxAssistantMessage,
	fauxThinking,
	fauxToolCall,
	type Message,
	registerFauxProvider,
	type ToolResultMessage,
	type UserMessage,
} from "@mariozechner/pi-ai";
import { afterEach, describe, expect, it } from "vitest";
import { buildContext } from "./context.js";
import { assistantRecordInput, messageRecordInput, toPiMessages } from "./pi.js";
import type { RecordInput, SessionRecord } from "./records.js";
import { validateRecordInput } from "./validate.js";

/** Appends inputs as a store would: seq, schemaVersion and (when absent) a timestamp filled in, validated. */
function stored(inputs: RecordInput[]): SessionRecord[] {
	return inputs.map((input, i) =>
		validateRecordInput(input, { seq: i + 1, timestamp: input.timestamp ?? "2025-02-11T10:00:00.000Z" }),
	);
}

const faux = registerFauxProvider({ models: [{ id: "faux-glue" }] });
afterEach(() => faux.setResponses([]));

describe("@agent/session-format/pi", () => {
	it("a store's context goes to pi-ai's complete() as it is, and the reply comes back as a record", async () => {
		const model = faux.getModel();
		const records = stored([
			messageRecordInput({ role: "user", content: "What is in a.txt?", timestamp: 1_739_268_000_000 }),
			assistantRecordInput(
				fauxAssistantMessage([fauxThinking("read it"), fauxToolCall("read", { path: "a.txt" }, { id: "t1" })], {
					stopReason: "toolUse",
					timestamp: 1_739_268_001_000,
				}),
			),
			messageRecordInput({
				role: "toolResult",
				toolCallId: "t1",
				toolName: "read",
				content: [{ type: "text", text: "hello" }],
				isError: false,
				details: { bytes: 5 },
				timestamp: 1_739_268_002_000,
			}),
		]);
		const context = buildContext(records);
		let seen: Message[] = [];
		faux.setResponses([
			(llm) => {
				seen = llm.messages;
				return fauxAssistantMessage("It says hello.");
			},
		]);
		const reply = await complete(model, { messages: toPiMessages(context) });
		expect(seen.map((message) => message.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(seen[0]).toEqual({
			role: "user",
			content: [{ type: "text", text: "What is in a.txt?" }],
			timestamp: 1_739_268_000_000,
		});
		expect((seen[1] as AssistantMessage).content[1]).toEqual({
			type: "toolCall",
			id: "t1",
			name: "read",
			arguments: { path: "a.txt" },
		});
		expect(seen[2]).toMatchObject({ toolCallId: "t1", toolName: "read", isError: false, timestamp: 1_739_268_002_000 });
		expect(seen[2]).not.toHaveProperty("details");

		const [record] = stored([assistantRecordInput(reply)]);
		expect(record).toMatchObject({ role: "assistant", content: [{ type: "text", text: "It says hello." }] });
		expect(record).toMatchObject({ provider: model.provider, model: model.id, stopReason: "stop" });
	});

	it("pi-ai messages round-trip through records: user, assistant (every block kind), tool result", () => {
		const messages: Message[] = [
			{
				role: "user",
				content: [
					{ type: "text", text: "look" },
					{ type: "image", data: "AAAA", mimeType: "image/png" },
				],
				timestamp: 1000,
			},
			{
				role: "assistant",
				content: [
					{ type: "thinking", thinking: "hm", thinkingSignature: "sig", redacted: false },
					{ type: "text", text: "calling", textSignature: "ts" },
					{ type: "toolCall", id: "c1", name: "ls", arguments: { dir: "." }, thoughtSignature: "th" },
				],
				api: "faux:api",
				provider: "faux",
				model: "m1",
				usage: {
					input: 3,
					output: 4,
					cacheRead: 1,
					cacheWrite: 2,
					totalTokens: 10,
					cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0, total: 0.3 },
				},
				stopReason: "toolUse",
				timestamp: 2000,
			},
			{
				role: "toolResult",
				toolCallId: "c1",
				toolName: "ls",
				content: [{ type: "text", text: "a.txt" }],
				isError: true,
				timestamp: 3000,
			},
		];
		const back = toPiMessages(buildContext(stored(messages.map(messageRecordInput))));
		expect(back).toEqual(messages);
	});

	it("a user message given as a string becomes one text block; its time becomes ISO text", () => {
		const input = messageRecordInput({ role: "user", content: "hi", timestamp: Date.UTC(2025, 0, 2) });
		expect(input).toEqual({
			recordType: "message",
			role: "user",
			content: [{ type: "text", text: "hi" }],
			timestamp: "2025-01-02T00:00:00.000Z",
		});
	});

	it("an assistant record without api, provider or model takes them from the defaults, else from the context's model", () => {
		const records = stored([
			{ recordType: "model_change", provider: "anthropic", modelId: "claude-x" },
			{ recordType: "message", role: "user", content: [{ type: "text", text: "q" }] },
			{ recordType: "message", role: "assistant", content: [{ type: "text", text: "a" }] },
		]);
		const context = buildContext(records);
		const [, fromContext] = toPiMessages(context) as [UserMessage, AssistantMessage];
		expect(fromContext).toMatchObject({ api: "unknown", provider: "anthropic", model: "claude-x" });
		const [, given] = toPiMessages(context.messages, faux.getModel()) as [UserMessage, AssistantMessage];
		expect(given).toMatchObject({ api: faux.api, provider: "faux", model: "faux-glue" });
		expect(given.usage).toEqual({
			input: 0,
			output: 0,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 0,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		});
	});

	it("images never reach an assistant message; a tool result without its fields gets empty ones", () => {
		const [assistant, result] = toPiMessages([
			{
				role: "assistant",
				origin: "message",
				content: [
					{ type: "image", data: "AAAA", mimeType: "image/png" },
					{ type: "text", text: "x" },
				],
			},
			{ role: "toolResult", origin: "message", content: [{ type: "text", text: "r" }] },
		]) as [AssistantMessage, ToolResultMessage];
		expect(assistant.content).toEqual([{ type: "text", text: "x" }]);
		expect(result).toMatchObject({ toolCallId: "", toolName: "", isError: false });
	});

	it("an aborted or failed reply keeps its stop reason and error message", () => {
		const reply = fauxAssistantMessage("", { stopReason: "error", errorMessage: "rate limited", timestamp: 5 });
		const input = assistantRecordInput(reply);
		expect(input).toMatchObject({ stopReason: "error", errorMessage: "rate limited" });
		expect(input).not.toHaveProperty("responseId");
	});
});
