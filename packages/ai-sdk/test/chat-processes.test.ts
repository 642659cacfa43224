// Chats across processes: a chat saved here loads the same in a new process, and two processes
// saving one chat at the same moment are serialized by the store's lease: nothing is lost, and
// nothing is written twice.
import type { UIMessage } from "ai";
import { expect, it } from "vitest";
import type { SaveChatResult } from "../src/index.js";
import { UI_MESSAGE_TYPE } from "../src/index.js";
import { runChild, runTogether } from "./child.js";
import { chatTurn, userMessage } from "./route.js";
import { reasoning, scriptedModel, step, text, toolCall } from "./scripted-model.js";
import { describeOnStores, recordsOf } from "./stores.js";

const reply = (id: string, words: string): UIMessage => ({
	id,
	role: "assistant",
	parts: [{ type: "step-start" }, { type: "text", text: words, state: "done" }],
});

describeOnStores("chats across processes", (use) => {
	it("a chat saved through the AI SDK loads back identical in a new process", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat();
		const model = scriptedModel([
			step("tool-calls", reasoning("r", "Checking."), toolCall("call-7", "weather", { city: "Oslo" })),
			step("stop", text("t", "Sunny in Oslo, ", "surprisingly. 🌞")),
		]);
		const { response, finished } = await chatTurn(chats, chatId, userMessage("u1", "Oslo weather?"), model);
		await response.text();
		const { messages } = await finished;

		expect(await runChild(target, { command: "load", chatId })).toEqual(messages);
	});

	it("two processes saving the same messages at once write them once", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat();
		let messages: UIMessage[] = [];
		for (let round = 1; round <= 3; round++) {
			messages = [...messages, userMessage(`u${round}`, `question ${round}`), reply(`a${round}`, `answer ${round}`)];
			const save = { command: "save", chatId, messages } as const;
			const results = (await runTogether(target, [save, save])) as SaveChatResult[];
			expect(results.map((result) => result.written).sort((a, b) => a - b)).toEqual([0, 4]);
		}
		expect(await chats.loadChat(chatId)).toEqual(messages);
		const closing = (await recordsOf(target.store, chatId)).filter(
			(record) => record.recordType === "custom" && record.customType === UI_MESSAGE_TYPE,
		);
		expect(closing.map((record) => (record as { data: { message: UIMessage } }).data.message.id)).toEqual([
			"u1",
			"a1",
			"u2",
			"a2",
			"u3",
			"a3",
		]);
	});

	it("two processes saving different continuations at once keep both: one active, the other a branch", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat();
		const common = [userMessage("u1", "Start"), reply("a1", "Started.")];
		await chats.saveChat({ chatId, messages: common });
		const tabs = ["left", "right"].map((tab) => [
			...common,
			userMessage(`u-${tab}`, tab),
			reply(`a-${tab}`, `${tab}!`),
		]);
		const results = (await runTogether(
			target,
			tabs.map((messages) => ({ command: "save", chatId, messages })),
		)) as SaveChatResult[];

		expect(results.map((result) => result.written)).toEqual([4, 4]);
		expect(results.map((result) => result.branched).sort()).toEqual([false, true]);
		const loaded = await chats.loadChat(chatId);
		expect(tabs).toContainEqual(loaded);
		const records = await recordsOf(target.store, chatId);
		const ids = records
			.filter((record) => record.recordType === "custom" && record.customType === UI_MESSAGE_TYPE)
			.map((record) => (record as { data: { message: UIMessage } }).data.message.id);
		expect(ids.sort()).toEqual(["a-left", "a-right", "a1", "u-left", "u-right", "u1"]);
		expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
		const [report] = await target.store.verify(chatId);
		expect(report?.problems).toEqual([]);
	});
});
