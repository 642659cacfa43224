// A save cut off after some of its records (power lost mid-write: the batch's first lines made it,
// its closing UIMessage record did not) was never acknowledged: loadChat does not show it, and the
// next save leaves it aside rather than building on it.
import type { MessageRecord } from "@agent/session-format/reading";
import type { UIMessage } from "ai";
import { expect, it } from "vitest";
import { userMessage } from "./route.js";
import { describeOnStores, recordsOf } from "./stores.js";

const reply = (id: string, text: string): UIMessage => ({ id, role: "assistant", parts: [{ type: "text", text }] });

describeOnStores("an unfinished save", (use) => {
	it("is not part of the chat, and the next save continues from before it", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat();
		const saved = [userMessage("u1", "Hello"), reply("a1", "Hi.")];
		await chats.saveChat({ chatId, messages: saved });
		// What a torn batch leaves: the message records of a group, without the record that closes it.
		await target.store.append(chatId, [
			{ recordType: "message", role: "user", content: [{ type: "text", text: "never acknowledged" }] },
		]);
		expect(await chats.loadChat(chatId)).toEqual(saved);

		const next = [...saved, userMessage("u2", "Still there?"), reply("a2", "Yes.")];
		expect(await chats.saveChat({ chatId, messages: next })).toMatchObject({ written: 4 });
		expect(await chats.loadChat(chatId)).toEqual(next);
		const { context } = await target.store.open(chatId);
		expect(context.messages.map((message) => (message.content[0] as { text: string }).text)).toEqual([
			"Hello",
			"Hi.",
			"Still there?",
			"Yes.",
		]);
		const orphan = (await recordsOf(target.store, chatId)).find(
			(record): record is MessageRecord =>
				record.recordType === "message" && (record.content[0] as { text: string }).text === "never acknowledged",
		);
		expect(orphan).toBeDefined(); // still in the log: nothing is deleted
	});
});
