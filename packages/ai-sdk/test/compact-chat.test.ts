// compactChat: a long chat compacted with an AI SDK model as the summarizer (@agent/compaction
// underneath); the model then gets the summary and the recent messages, the chat stays whole.
import type { UIMessage } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { expect, it } from "vitest";
import { compactChat } from "../src/compaction.js";
import { chatTurn, userMessage } from "./route.js";
import { scriptedModel, step, text } from "./scripted-model.js";
import { describeOnStores, recordsOf } from "./stores.js";

const SUMMARY = [
	"## Goal",
	"Plan a garden.",
	"## Progress",
	"Beds chosen.",
	"## Key Decisions",
	"Raised beds.",
	"## Next Steps",
	"Buy soil.",
	"## Critical Context",
	"Shady north side.",
].join("\n");

function summarizer(during?: () => Promise<void>) {
	return new MockLanguageModelV3({
		provider: "mock",
		modelId: "summarizer",
		doGenerate: async () => {
			await during?.();
			return {
				content: [{ type: "text", text: SUMMARY }],
				finishReason: { unified: "stop", raw: "stop" },
				usage: {
					inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
					outputTokens: { total: 20, text: 20, reasoning: 0 },
				},
				warnings: [],
			};
		},
	});
}

/** Ten exchanges of about 300 tokens each. */
function longChat(): UIMessage[] {
	return Array.from({ length: 10 }, (_, turn) => [
		userMessage(`u${turn}`, `Question ${turn}: ${"about the garden ".repeat(36)}`),
		{
			id: `a${turn}`,
			role: "assistant",
			parts: [{ type: "text", text: `Answer ${turn}: ${"plant this ".repeat(55)}` }],
		},
	]).flat() as UIMessage[];
}

const settings = { reserveTokens: 1000, keepRecentTokens: 1200 };

describeOnStores("compactChat", (use) => {
	it("summarizes the older messages with the AI SDK model; the model then gets the summary and the recent ones", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat();
		const messages = longChat();
		await chats.saveChat({ chatId, messages });
		expect(await compactChat(chats, chatId, { model: summarizer(), contextWindow: 100_000, settings })).toBeUndefined();

		const model = summarizer();
		const record = await compactChat(chats, chatId, { model, contextWindow: 4000, settings });
		expect(record).toMatchObject({ recordType: "compaction", summary: expect.stringContaining("Plan a garden.") });
		expect(JSON.stringify(model.doGenerateCalls[0]?.prompt)).toContain("Question 0:");

		const sent = JSON.stringify(await chats.modelMessages(chatId));
		expect(sent).toContain("Plan a garden.");
		expect(sent).not.toContain("Question 0:");
		expect(sent).toContain("Answer 9:");
		expect(sent.length).toBeLessThan(JSON.stringify(messages).length / 2);
		expect(await chats.loadChat(chatId)).toEqual(messages);

		// The next turn goes on after the compaction, and the model is sent the summary.
		const next = scriptedModel([step("stop", text("t", "Buy soil first."))]);
		const { response, finished } = await chatTurn(chats, chatId, userMessage("u10", "What now?"), next);
		await response.text();
		expect((await finished).messages).toHaveLength(22);
		expect(JSON.stringify(next.doStreamCalls[0]?.prompt)).toContain("Plan a garden.");
		expect((await target.store.open(chatId)).context.compaction?.seq).toBe(record?.seq);
	});

	it("writes nothing when the chat moved to another branch while the summary was written", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat();
		const messages = longChat();
		await chats.saveChat({ chatId, messages });
		const edited = [userMessage("u0", "Something else entirely")];
		const model = summarizer(async () => {
			await chats.saveChat({ chatId, messages: edited });
		});
		const before = (await recordsOf(target.store, chatId)).length;
		expect(await compactChat(chats, chatId, { model, contextWindow: 4000, settings })).toBeUndefined();
		const records = await recordsOf(target.store, chatId);
		expect(records.filter((record) => record.recordType === "compaction")).toEqual([]);
		expect(records.length).toBeGreaterThan(before);
		expect(await chats.loadChat(chatId)).toEqual(edited);
	});

	it("refuses options that cannot work, naming them", async () => {
		const { chats } = use();
		const chatId = await chats.createChat();
		await expect(compactChat(chats, chatId, { model: summarizer(), contextWindow: 0 })).rejects.toThrow(
			/@agent\/ai-sdk: compactChat needs options.contextWindow/,
		);
		await expect(
			compactChat(chats, chatId, { contextWindow: 1000 } as unknown as Parameters<typeof compactChat>[2]),
		).rejects.toThrow(/compactChat needs options.model/);
	});
});
