// A chat store in a process of its own, as another server instance would run one:
//   node test/chat-child.mjs <file|postgres> <home|url> load <chatId>
//   node test/chat-child.mjs <file|postgres> <home|url> save <chatId> <startAtMs>   (messages as JSON on stdin)
//   node test/chat-child.mjs <file|postgres> <home|url> stream-id <chatId>
// It prints its answer as JSON. A save waits until startAtMs (epoch ms), so two of them start together.
import { readFileSync } from "node:fs";
import { createChatStore } from "@agent/ai-sdk";
import { createFileStore } from "@agent/session-fs";
import { openPgStore } from "@agent/session-pg";

const [kind, location, command, chatId, startAt] = process.argv.slice(2);
const store =
	kind === "file" ? createFileStore({ home: location }) : await openPgStore({ url: location, maxConnections: 2 });
const chats = createChatStore({ store, waitMs: 30_000 });
try {
	if (command === "load") {
		process.stdout.write(JSON.stringify(await chats.loadChat(chatId)));
	} else if (command === "stream-id") {
		process.stdout.write(JSON.stringify(await chats.getActiveStreamId(chatId)));
	} else if (command === "save") {
		const messages = JSON.parse(readFileSync(0, "utf8"));
		await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
		process.stdout.write(JSON.stringify(await chats.saveChat({ chatId, messages })));
	} else {
		throw new Error(`unknown command ${command}`);
	}
} finally {
	await store.close?.();
}
