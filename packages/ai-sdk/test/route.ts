import { consumeStream, type LanguageModel, stepCountIs, streamText, type ToolSet, tool, type UIMessage } from "ai";
import * as z from "zod";
import type { ChatFinishEvent, ChatStore } from "../src/index.js";

export const tools = {
	weather: tool({
		inputSchema: z.object({ city: z.string() }),
		execute: async ({ city }) => ({ city, sky: "sunny", celsius: 22 }),
	}),
} satisfies ToolSet;

export interface TurnOptions {
	abortSignal?: AbortSignal;
	/** Passed to onFinish: e.g. null to clear the active stream when the reply ends. */
	activeStreamId?: string | null;
	/** consumeSseStream: consumeStream by default (a disconnected client still saves). */
	consumeSseStream?: (options: { stream: ReadableStream<string> }) => PromiseLike<void> | void;
	/** The tools the model may call; default: weather, which runs on the server. */
	tools?: ToolSet;
}

let replies = 0;

/**
 * What the README's route handler does with one request: the chat's messages with the new one,
 * saved first, the model given the chat's context, the reply saved by onFinish. `finished` is what
 * onFinish got, once it has saved.
 */
export async function chatTurn(
	chats: ChatStore,
	chatId: string,
	message: UIMessage,
	model: LanguageModel,
	options: TurnOptions = {},
): Promise<{ response: Response; finished: Promise<ChatFinishEvent> }> {
	const messages = await chats.messagesWith(chatId, message);
	await chats.saveChat({ chatId, messages });
	const result = streamText({
		model,
		messages: await chats.modelMessages(chatId),
		tools: options.tools ?? tools,
		stopWhen: stepCountIs(5),
		onError: () => {}, // a failing model is what some tests are about: no console noise
		...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
	});
	const save = chats.onFinish(chatId, {
		model,
		...(options.activeStreamId === undefined ? {} : { activeStreamId: options.activeStreamId }),
	});
	let settle: (event: ChatFinishEvent) => void = () => {};
	let fail: (error: unknown) => void = () => {};
	const finished = new Promise<ChatFinishEvent>((resolve, reject) => {
		settle = resolve;
		fail = reject;
	});
	const response = result.toUIMessageStreamResponse({
		originalMessages: messages,
		generateMessageId: () => `reply-${++replies}`,
		onFinish: async (event) => {
			try {
				await save(event);
				settle(event);
			} catch (error) {
				fail(error);
			}
		},
		consumeSseStream: options.consumeSseStream ?? consumeStream,
	});
	return { response, finished };
}

export function userMessage(id: string, text: string): UIMessage {
	return { id, role: "user", parts: [{ type: "text", text }] };
}

/** Reads the response's stream until `text` has come (the reply is under way); the reader, to cancel or read on. */
export async function readUntil(response: Response, text: string): Promise<ReadableStreamDefaultReader<Uint8Array>> {
	const reader = (response.body as ReadableStream<Uint8Array>).getReader();
	const decoder = new TextDecoder();
	let seen = "";
	while (!seen.includes(text)) {
		const { value, done } = await reader.read();
		if (done) throw new Error(`the stream ended before ${JSON.stringify(text)} came`);
		seen += decoder.decode(value, { stream: true });
	}
	return reader;
}
