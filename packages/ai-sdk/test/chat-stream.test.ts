// A chat streamed through the real AI SDK (streamText → toUIMessageStreamResponse → onFinish),
// with its mock model, saved on each store: what loads back, what our records say, and the
// streams that end badly (aborted, the client gone) or are resumed.
import type { MessageRecord, StoredRecord } from "@agent/session-format/reading";
import type { UIMessage } from "ai";
import { expect, it } from "vitest";
import { UI_MESSAGE_TYPE } from "../src/index.js";
import { chatTurn, readUntil, userMessage } from "./route.js";
import { reasoning, scriptedModel, step, text, toolCall } from "./scripted-model.js";
import { describeOnStores, recordsOf } from "./stores.js";

const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

function weatherModel(options: { chunkDelayInMs?: number } = {}) {
	return scriptedModel(
		[
			step(
				"tool-calls",
				reasoning("r1", "The user wants ", "the weather."),
				text("t1", "Let me look."),
				toolCall("call-1", "weather", { city: "Paris" }),
			),
			step("stop", text("t2", "Sunny, ", "22 °C ", "in Paris.")),
		],
		options,
	);
}

const messageRecords = (records: StoredRecord[]) =>
	records.filter((record): record is MessageRecord => record.recordType === "message");

describeOnStores("a chat streamed through the AI SDK", (use) => {
	it("loads back exactly the messages onFinish had: text, reasoning, a tool call and its result, step by step", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat({ name: "weather" });
		const question: UIMessage = {
			id: "u1",
			role: "user",
			metadata: { sentAt: "2026-01-02T03:04:05.000Z" },
			parts: [
				{ type: "text", text: "Weather in Paris? ☀️" },
				{ type: "file", mediaType: "image/png", filename: "sky.png", url: `data:image/png;base64,${PIXEL}` },
			],
		};
		const { response, finished } = await chatTurn(chats, chatId, question, weatherModel());
		await response.text();
		const event = await finished;

		expect(await chats.loadChat(chatId)).toEqual(event.messages);
		expect(event.messages.map((message) => [message.id, message.role])).toEqual([
			["u1", "user"],
			[event.responseMessage?.id, "assistant"],
		]);
		const reply = event.messages[1] as UIMessage;
		expect(reply.parts.map((part) => part.type)).toEqual([
			"step-start",
			"reasoning",
			"text",
			"tool-weather",
			"step-start",
			"text",
		]);

		// Our records: what the CLI, the page, search, export and compaction read.
		const records = messageRecords(await recordsOf(target.store, chatId));
		expect(records.map((record) => [record.role, record.content.map((block) => block.type)])).toEqual([
			["user", ["text", "image"]],
			["assistant", ["thinking", "text", "toolCall"]],
			["toolResult", ["text"]],
			["assistant", ["text"]],
		]);
		expect(records[0]?.content[1]).toEqual({ type: "image", mimeType: "image/png", data: PIXEL });
		expect(records[1]?.content[2]).toEqual({
			type: "toolCall",
			id: "call-1",
			name: "weather",
			arguments: { city: "Paris" },
		});
		expect(records[2]).toMatchObject({ toolCallId: "call-1", toolName: "weather", isError: false });
		expect(JSON.parse((records[2]!.content[0] as { text: string }).text)).toEqual({
			city: "Paris",
			sky: "sunny",
			celsius: 22,
		});
		expect(records[3]).toMatchObject({ provider: "mock", model: "mock-1" });
		const { context } = await target.store.open(chatId);
		expect(context.messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		const hits = await target.store.search("22 °C");
		expect(hits.map((hit) => hit.sessionId)).toContain(chatId);
	});

	it("writes nothing when the same messages are saved again, in any key order", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat();
		const { response, finished } = await chatTurn(chats, chatId, userMessage("u1", "Weather?"), weatherModel());
		await response.text();
		const { messages } = await finished;
		const before = await target.store.metadata(chatId);
		expect(await chats.saveChat({ chatId, messages })).toEqual({ written: 0, branched: false });
		const reordered = JSON.parse(JSON.stringify(messages), (_key, value) =>
			typeof value === "object" && value !== null && !Array.isArray(value)
				? Object.fromEntries(Object.entries(value).reverse())
				: value,
		);
		expect(await chats.saveChat({ chatId, messages: reordered })).toEqual({ written: 0, branched: false });
		expect((await target.store.metadata(chatId)).lastSeq).toBe(before.lastSeq);
	});

	it("keeps an aborted reply as far as it got, with isAborted recorded", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat();
		const controller = new AbortController();
		const model = scriptedModel(
			[step("stop", text("t1", "Once ", "upon ", "a ", "time ", "there ", "was ", "a ", "very ", "long ", "story."))],
			{ chunkDelayInMs: 40 },
		);
		const { response, finished } = await chatTurn(chats, chatId, userMessage("u1", "Tell me a story"), model, {
			abortSignal: controller.signal,
		});
		await readUntil(response, "upon");
		controller.abort();
		const event = await finished;
		expect(event.isAborted).toBe(true);

		const saved = await chats.loadChat(chatId);
		expect(saved).toEqual(event.messages);
		const partial = (saved[1]!.parts.find((part) => part.type === "text") as { text: string }).text;
		expect(partial.startsWith("Once upon")).toBe(true);
		expect(partial).not.toContain("story.");
		const records = await recordsOf(target.store, chatId);
		expect(messageRecords(records).at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
		const closing = records.filter((record) => record.recordType === "custom" && record.customType === UI_MESSAGE_TYPE);
		expect(closing.at(-1)).toMatchObject({ data: { aborted: true, message: { id: saved[1]?.id } } });
	});

	it("keeps a reply whose stream failed, with the error recorded", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat();
		const model = scriptedModel([
			[
				{ type: "stream-start", warnings: [] },
				...text("t1", "Half an ans").slice(0, 2),
				{ type: "error", error: new Error("the provider went away") },
			],
		]);
		const { response, finished } = await chatTurn(chats, chatId, userMessage("u1", "Explain"), model);
		await response.text();
		const event = await finished;
		expect(await chats.loadChat(chatId)).toEqual(event.messages);
		const records = await recordsOf(target.store, chatId);
		expect(messageRecords(records).at(-1)).toMatchObject({ role: "assistant", stopReason: "error" });
		expect(records.at(-1)).toMatchObject({ data: { error: expect.any(String) } });
	});

	it("saves the whole reply when the client goes away mid-stream (consumeSseStream: consumeStream)", async () => {
		const { chats } = use();
		const chatId = await chats.createChat();
		const model = scriptedModel([step("stop", text("t1", "one ", "two ", "three ", "four ", "five."))], {
			chunkDelayInMs: 20,
		});
		const { response, finished } = await chatTurn(chats, chatId, userMessage("u1", "Count to five"), model);
		const reader = (response.body as ReadableStream<Uint8Array>).getReader();
		await reader.read();
		await reader.cancel(); // the tab is closed
		const event = await finished;
		expect(event.isAborted).toBe(false);
		const saved = await chats.loadChat(chatId);
		expect(saved[1]?.parts.find((part) => part.type === "text")).toMatchObject({ text: "one two three four five." });
	});

	it("keeps the active stream id for a resume while the reply streams, and clears it when the reply is saved", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat();
		// The reply holds before its last words until the resume request below is answered: the
		// stream id must be there while the reply streams, however slowly this test runs.
		let resumeAnswered: () => void = () => {};
		const until = new Promise<void>((resolve) => {
			resumeAnswered = resolve;
		});
		const model = scriptedModel([step("stop", text("t1", "a ", "resumable ", "reply"))], { pause: { at: 4, until } });
		// resumable-stream's part, in memory: the stream kept under its id for GET /api/chat/[id]/stream.
		const kept = new Map<string, Promise<string>>();
		let announced: () => void = () => {};
		const streamIdSet = new Promise<void>((resolve) => {
			announced = resolve;
		});
		const { response, finished } = await chatTurn(chats, chatId, userMessage("u1", "Hi"), model, {
			activeStreamId: null,
			consumeSseStream: async ({ stream }) => {
				kept.set("stream-1", new Response(stream.pipeThrough(new TextEncoderStream())).text());
				await chats.setActiveStreamId(chatId, "stream-1");
				announced();
			},
		});
		const reader = (response.body as ReadableStream<Uint8Array>).getReader();
		await reader.read();
		await reader.cancel(); // the page reloads mid-reply
		await streamIdSet;

		// Another server instance answers the resume request from the store alone.
		const elsewhere = (await import("../src/index.js")).createChatStore({ store: await target.another() });
		const streamId = await elsewhere.getActiveStreamId(chatId);
		resumeAnswered();
		expect(streamId).toBe("stream-1");
		expect(await kept.get(streamId as string)).toContain("resumable ");

		await finished;
		expect(await elsewhere.getActiveStreamId(chatId)).toBeNull();
		expect((await elsewhere.loadChat(chatId))[1]?.parts.at(-1)).toMatchObject({ text: "a resumable reply" });
	});
});
