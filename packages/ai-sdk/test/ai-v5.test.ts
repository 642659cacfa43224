// The same chat through ai 5 (installed as "ai-v5"), with its own mock model (LanguageModelV2):
// the peer range is ^5 || ^6, and saving and loading use nothing of the SDK but its message shape.
import {
	consumeStream,
	convertToModelMessages,
	simulateReadableStream,
	stepCountIs,
	streamText,
	tool,
	type UIMessage,
} from "ai-v5";
import { MockLanguageModelV2 } from "ai-v5/test";
import { expect, it } from "vitest";
import * as z from "zod";
import type { ChatFinishEvent } from "../src/index.js";
import { describeOnStores } from "./stores.js";

type V2Part =
	Awaited<ReturnType<MockLanguageModelV2["doStream"]>>["stream"] extends ReadableStream<infer Part> ? Part : never;

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
const steps: V2Part[][] = [
	[
		{ type: "stream-start", warnings: [] },
		{ type: "reasoning-start", id: "r" },
		{ type: "reasoning-delta", id: "r", delta: "Looking it up." },
		{ type: "reasoning-end", id: "r" },
		{ type: "tool-call", toolCallId: "call-1", toolName: "weather", input: '{"city":"Rome"}' },
		{ type: "finish", finishReason: "tool-calls", usage },
	],
	[
		{ type: "stream-start", warnings: [] },
		{ type: "text-start", id: "t" },
		{ type: "text-delta", id: "t", delta: "Warm in Rome." },
		{ type: "text-end", id: "t" },
		{ type: "finish", finishReason: "stop", usage },
	],
];

describeOnStores("ai 5", (use) => {
	it("a reply streamed with ai 5 is saved by onFinish and loads back identical", async () => {
		const { chats } = use();
		const chatId = await chats.createChat();
		let call = 0;
		const model = new MockLanguageModelV2({
			doStream: async () => ({ stream: simulateReadableStream({ chunks: steps[call++] as V2Part[] }) }),
		});
		const messages: UIMessage[] = [{ id: "u1", role: "user", parts: [{ type: "text", text: "Rome?" }] }];
		await chats.saveChat({ chatId, messages });
		const result = streamText({
			model,
			messages: convertToModelMessages(messages),
			stopWhen: stepCountIs(3),
			tools: { weather: tool({ inputSchema: z.object({ city: z.string() }), execute: async () => "warm" }) },
		});
		const save = chats.onFinish(chatId);
		let saved: (event: ChatFinishEvent) => void = () => {};
		const finished = new Promise<ChatFinishEvent>((resolve) => {
			saved = resolve;
		});
		const response = result.toUIMessageStreamResponse({
			originalMessages: messages,
			generateMessageId: () => "a1",
			onFinish: async (event) => {
				await save(event);
				saved(event);
			},
			consumeSseStream: consumeStream,
		});
		await response.text();
		const event = await finished;

		expect(event.messages[1]?.parts.map((part) => part.type)).toEqual([
			"step-start",
			"reasoning",
			"tool-weather",
			"step-start",
			"text",
		]);
		expect(await chats.loadChat(chatId)).toEqual(event.messages);
	});
});
