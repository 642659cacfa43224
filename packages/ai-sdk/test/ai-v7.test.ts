// The same chat through ai 7 (installed as "ai-v7"), with its own mock model (LanguageModelV4):
// the route handler's calls, with onEnd (ai 7's name for onFinish). ai 7 needs Node >= 22, so on
// Node 20 these are skipped; the repository's tests run again under Node 22 and 24.
import { SessionTree } from "@agent/session-format/reading";
import { expect, it } from "vitest";
import * as z from "zod";
import type { ChatFinishEvent, ChatStore } from "../src/index.js";
import { readUntil } from "./route.js";
import { describeOnStores, recordsOf } from "./stores.js";

const NODE_MAJOR = Number(process.versions.node.split(".")[0]);
const ai = NODE_MAJOR >= 22 ? await import("ai-v7") : undefined;
const aiTest = NODE_MAJOR >= 22 ? await import("ai-v7/test") : undefined;

type UIMessage = import("ai-v7").UIMessage;
type V4Part =
	Awaited<ReturnType<import("ai-v7/test").MockLanguageModelV4["doStream"]>>["stream"] extends ReadableStream<infer Part>
		? Part
		: never;

const usage = {
	inputTokens: { total: 12, noCache: 12, cacheRead: 0, cacheWrite: 0 },
	outputTokens: { total: 7, text: 7, reasoning: 0 },
};

function stepOf(finish: "stop" | "tool-calls", parts: V4Part[]): V4Part[] {
	return [
		{ type: "stream-start", warnings: [] },
		...parts,
		{ type: "finish", finishReason: { unified: finish, raw: finish }, usage },
	];
}

function textParts(id: string, ...deltas: string[]): V4Part[] {
	return [
		{ type: "text-start", id },
		...deltas.map((delta) => ({ type: "text-delta" as const, id, delta })),
		{ type: "text-end", id },
	];
}

/** ai 7's mock model answering each call with the next step. */
function model(steps: V4Part[][], chunkDelayInMs: number | null = null) {
	if (!ai || !aiTest) throw new Error("ai 7 needs Node >= 22");
	const { simulateReadableStream } = ai;
	let call = 0;
	return new aiTest.MockLanguageModelV4({
		provider: "mock",
		modelId: "mock-7",
		doStream: async () => ({
			stream: simulateReadableStream({ chunks: steps[call++] ?? [], chunkDelayInMs }),
		}),
	});
}

/** The README's route handler on ai 7: one request, its reply saved by onEnd. */
async function post(
	chats: ChatStore,
	chatId: string,
	message: UIMessage,
	answering: ReturnType<typeof model>,
	{ abortSignal, consume = true }: { abortSignal?: AbortSignal; consume?: boolean } = {},
) {
	if (!ai) throw new Error("ai 7 needs Node >= 22");
	const { consumeStream, stepCountIs, streamText, tool } = ai;
	const messages = (await chats.messagesWith(chatId, message as never)) as unknown as UIMessage[];
	await chats.saveChat({ chatId, messages: messages as never });
	const result = streamText({
		model: answering,
		messages: (await chats.modelMessages(chatId)) as never,
		tools: {
			weather: tool({
				inputSchema: z.object({ city: z.string() }),
				execute: async ({ city }) => ({ city, sky: "sunny" }),
			}),
		},
		stopWhen: stepCountIs(3),
		...(abortSignal ? { abortSignal } : {}),
	});
	const save = chats.onEnd(chatId, { model: answering });
	let settle: (event: ChatFinishEvent) => void = () => {};
	const ended = new Promise<ChatFinishEvent>((resolve) => {
		settle = resolve;
	});
	let replies = 0;
	const response = result.toUIMessageStreamResponse({
		originalMessages: messages,
		generateMessageId: () => `${message.id}-reply-${++replies}-${Date.now()}`,
		onEnd: async (event) => {
			await save(event as ChatFinishEvent);
			settle(event as ChatFinishEvent);
		},
		...(consume ? { consumeSseStream: consumeStream } : {}),
	});
	return { response, ended };
}

const user = (id: string, text: string): UIMessage => ({ id, role: "user", parts: [{ type: "text", text }] });

if (NODE_MAJOR < 22) it.skip("ai 7 needs Node >= 22: these run under Node 22 and 24", () => {});
else
	describeOnStores("ai 7", (use) => {
		it("a reply with reasoning and a tool call, streamed with ai 7, is saved by onEnd and loads back identical", async () => {
			const { chats, target } = use();
			const chatId = await chats.createChat();
			const answering = model([
				stepOf("tool-calls", [
					{ type: "reasoning-start", id: "r" },
					{ type: "reasoning-delta", id: "r", delta: "Look it up." },
					{ type: "reasoning-end", id: "r" },
					{ type: "tool-call", toolCallId: "call-1", toolName: "weather", input: '{"city":"Rome"}' },
				]),
				stepOf("stop", textParts("t", "Sunny ", "in Rome.")),
			]);
			const { response, ended } = await post(chats, chatId, user("u1", "Rome?"), answering);
			await response.text();
			const event = await ended;

			expect(event.messages[1]?.parts.map((part) => part.type)).toEqual([
				"step-start",
				"reasoning",
				"tool-weather",
				"step-start",
				"text",
			]);
			expect(await chats.loadChat(chatId)).toEqual(event.messages);
			const { context } = await target.store.open(chatId);
			expect(context.messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
			expect(context.messages[2]).toMatchObject({ toolName: "weather", isError: false });
		});

		it("regenerate with ai 7 branches: the new answer loads, the old one stays in the log", async () => {
			const { chats, target } = use();
			const chatId = await chats.createChat();
			const question = user("q", "A colour?");
			for (const colour of ["Blue.", "Green."]) {
				const { response, ended } = await post(
					chats,
					chatId,
					question,
					model([stepOf("stop", textParts("t", colour))]),
				);
				await response.text();
				await ended;
			}
			const loaded = await chats.loadChat(chatId);
			expect(loaded.map((message) => message.parts.find((part) => part.type === "text"))).toMatchObject([
				{ text: "A colour?" },
				{ text: "Green." },
			]);
			expect(new SessionTree(await recordsOf(target.store, chatId)).branchPoints()).toHaveLength(1);
		});

		it("an aborted ai 7 stream keeps the partial reply, marked aborted", async () => {
			const { chats, target } = use();
			const chatId = await chats.createChat();
			const controller = new AbortController();
			const words = ["Once ", "upon ", "a ", "time ", "there ", "was ", "a ", "long ", "story."];
			const { response, ended } = await post(
				chats,
				chatId,
				user("u1", "A story?"),
				model([stepOf("stop", textParts("t", ...words))], 40),
				{ abortSignal: controller.signal },
			);
			await readUntil(response, "upon");
			controller.abort();
			const event = await ended;
			expect(event.isAborted).toBe(true);
			const saved = await chats.loadChat(chatId);
			expect(saved).toEqual(event.messages);
			const records = await recordsOf(target.store, chatId);
			const replies = records.filter((record) => record.recordType === "message" && record.role === "assistant");
			expect(replies.at(-1)).toMatchObject({ stopReason: "aborted" });
		});

		it("a client gone without consumeStream: ai 7 ends the stream as cancelled, and the partial reply is kept as aborted", async () => {
			const { chats, target } = use();
			const chatId = await chats.createChat();
			const words = ["one ", "two ", "three ", "four ", "five ", "six ", "seven."];
			const { response, ended } = await post(
				chats,
				chatId,
				user("u1", "Count"),
				model([stepOf("stop", textParts("t", ...words))], 40),
				{ consume: false },
			);
			const reader = await readUntil(response, "two");
			await reader.cancel(); // the tab is closed
			const event = await ended;
			expect(event.isCancelled).toBe(true);
			const saved = await chats.loadChat(chatId);
			expect(saved).toEqual(event.messages);
			const records = await recordsOf(target.store, chatId);
			const replies = records.filter((record) => record.recordType === "message" && record.role === "assistant");
			expect(replies.at(-1)).toMatchObject({ stopReason: "aborted" });
		});
	});
