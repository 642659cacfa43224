// A chat store in a process of its own, as another server instance would run one. Its task is
// JSON in argv[2]: { kind: "file" | "postgres", location, command: "load" | "save", chatId,
// messages?, barrier? }. With `barrier`, it prints "waiting" once its store is open and goes on
// when the parent writes "go" (so that two saves start together however slowly each loaded).
// Its last line is its outcome: { ok: true, result } or { ok: false, code, message }.
import { createChatStore } from "@agent/ai-sdk";
import { createFileStore } from "@agent/session-fs";
import { openPgStore } from "@agent/session-pg";

const task = JSON.parse(process.argv[2]);
const store =
	task.kind === "file"
		? createFileStore({ home: task.location })
		: await openPgStore({ url: task.location, maxConnections: 2 });
const chats = createChatStore({ store, waitMs: 30_000 });
const say = (line) => process.stdout.write(`${line}\n`);

async function act() {
	if (task.barrier) {
		say("waiting");
		await new Promise((resolve) =>
			process.stdin.setEncoding("utf8").on("data", (chunk) => chunk.includes("go") && resolve()),
		);
	}
	if (task.command === "load") return chats.loadChat(task.chatId);
	if (task.command === "save") return chats.saveChat({ chatId: task.chatId, messages: task.messages });
	throw new Error(`unknown command ${task.command}`);
}

try {
	say(JSON.stringify({ ok: true, result: await act() }));
} catch (error) {
	say(JSON.stringify({ ok: false, code: error.code ?? null, message: String(error.message) }));
} finally {
	await store.close?.();
	process.stdin.destroy();
}
