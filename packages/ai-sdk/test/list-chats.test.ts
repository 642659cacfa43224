// listChats: the chats of a store for a chat app's sidebar, most recently written first, titled by
// their name or first question, per user (identity key), page by page; archived ones only on request.
import { expect, it } from "vitest";
import { userMessage } from "./route.js";
import { describeOnStores } from "./stores.js";

describeOnStores("listChats", (use) => {
	it("lists a user's chats most recently written first, titled by name or first question, page by page", async () => {
		const { chats } = use();
		const user = `user:${Date.now()}`;
		const named = await chats.createChat({ name: "Trip plans", identityKey: user });
		const asked = await chats.createChat({ identityKey: user });
		const other = await chats.createChat({ identityKey: "someone-else" });
		await chats.saveChat({ chatId: asked, messages: [userMessage("u1", "What is a monad?")] });
		await chats.saveChat({ chatId: named, messages: [userMessage("u1", "Book a train")] });
		await chats.saveChat({ chatId: other, messages: [userMessage("u1", "Not theirs")] });

		const page = await chats.listChats({ identityKey: user });
		expect(page.chats.map((chat) => [chat.id, chat.title])).toEqual([
			[named, "Trip plans"],
			[asked, "What is a monad?"],
		]);
		expect(page.chats[0]).toMatchObject({ identityKey: user, archived: false });
		expect((page.chats[0]?.updatedAt ?? "") >= (page.chats[1]?.updatedAt ?? "")).toBe(true);

		const first = await chats.listChats({ identityKey: user, limit: 1 });
		expect(first.chats.map((chat) => chat.id)).toEqual([named]);
		expect(first.nextCursor).toBeDefined();
		const second = await chats.listChats({ identityKey: user, limit: 1, cursor: first.nextCursor });
		expect(second.chats.map((chat) => chat.id)).toEqual([asked]);

		await chats.store.archive(asked);
		expect((await chats.listChats({ identityKey: user })).chats.map((chat) => chat.id)).toEqual([named]);
		const withArchived = await chats.listChats({ identityKey: user, archived: true });
		expect(withArchived.chats.find((chat) => chat.id === asked)).toMatchObject({ archived: true });
	});
});
