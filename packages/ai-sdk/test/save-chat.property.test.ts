// saveChat under random histories of what a chat UI does (send, regenerate, edit, continue a
// reply, change an earlier message, cut the chat short, save again): after every save the chat
// loads back as saved, saving it again writes nothing, every version ever saved is still in the
// log, and the context the LLM sees is exactly the current messages mapped to our records.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MessageRecord } from "@agent/session-format/reading";
import { createFileStore } from "@agent/session-fs";
import type { UIMessage } from "ai";
import fc from "fast-check";
import { afterAll, expect, it } from "vitest";
import { createChatStore, UI_MESSAGE_TYPE } from "../src/index.js";
import { mapUIMessage } from "../src/map-message.js";
import { canonicalJson } from "../src/same-json.js";
import { recordsOf } from "./stores.js";

type Op =
	| { kind: "send"; text: string; reply: string }
	| { kind: "regenerate"; reply: string }
	| { kind: "edit"; at: number; text: string; reply: string }
	| { kind: "continue"; more: string }
	| { kind: "touch"; at: number; note: string }
	| { kind: "cut"; at: number }
	| { kind: "resave" };

const words = fc.string({ unit: "grapheme", maxLength: 12 });
const op: fc.Arbitrary<Op> = fc.oneof(
	{ weight: 4, arbitrary: fc.record({ kind: fc.constant("send" as const), text: words, reply: words }) },
	fc.record({ kind: fc.constant("regenerate" as const), reply: words }),
	fc.record({ kind: fc.constant("edit" as const), at: fc.nat(), text: words, reply: words }),
	fc.record({ kind: fc.constant("continue" as const), more: words }),
	fc.record({ kind: fc.constant("touch" as const), at: fc.nat(), note: words }),
	fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }),
	fc.record({ kind: fc.constant("resave" as const) }),
);

let ids = 0;
const user = (text: string, id = `u${++ids}`): UIMessage => ({ id, role: "user", parts: [{ type: "text", text }] });
const reply = (text: string): UIMessage => ({
	id: `a${++ids}`,
	role: "assistant",
	parts: [{ type: "step-start" }, { type: "text", text, state: "done" }],
});

/** The chat as the UI has it after `op`. */
function apply(messages: UIMessage[], op: Op): UIMessage[] {
	const users = messages.flatMap((message, index) => (message.role === "user" ? [index] : []));
	switch (op.kind) {
		case "send":
			return [...messages, user(op.text), reply(op.reply)];
		case "regenerate":
			return messages.at(-1)?.role === "assistant" ? [...messages.slice(0, -1), reply(op.reply)] : messages;
		case "edit": {
			if (users.length === 0) return messages;
			const at = users[op.at % users.length] as number;
			return [...messages.slice(0, at), user(op.text, (messages[at] as UIMessage).id), reply(op.reply)];
		}
		case "continue": {
			const last = messages.at(-1);
			if (last?.role !== "assistant") return messages;
			const parts = [...last.parts, { type: "step-start" as const }, { type: "text" as const, text: op.more }];
			return [...messages.slice(0, -1), { ...last, parts }];
		}
		case "touch": {
			if (messages.length === 0) return messages;
			const at = op.at % messages.length;
			const touched = { ...(messages[at] as UIMessage), metadata: { note: op.note } };
			return messages.map((message, index) => (index === at ? touched : message));
		}
		case "cut":
			return messages.slice(0, op.at % (messages.length + 1));
		case "resave":
			return messages;
	}
}

const said = (record: MessageRecord | ReturnType<typeof mapUIMessage>["records"][number]) =>
	canonicalJson({ role: record.role, content: record.content, toolCallId: record.toolCallId });

const home = mkdtempSync(join(tmpdir(), "ai-sdk-property-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

it("saveChat: loads back as saved, resaving writes nothing, nothing saved is lost, the context is the chat", async () => {
	const store = createFileStore({ home });
	const chats = createChatStore({ store });
	await fc.assert(
		fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
			const chatId = await chats.createChat();
			let messages: UIMessage[] = [];
			const everSaved = new Set<string>();
			for (const step of ops) {
				messages = apply(messages, step);
				await chats.saveChat({ chatId, messages });
				for (const message of messages) everSaved.add(canonicalJson(message));

				expect(await chats.loadChat(chatId)).toEqual(messages);
				expect(await chats.saveChat({ chatId, messages })).toEqual({ written: 0, branched: false });
				const records = await recordsOf(store, chatId);
				const logged = new Set(
					records.flatMap((record) =>
						record.recordType === "custom" && record.customType === UI_MESSAGE_TYPE
							? [canonicalJson((record.data as { message: UIMessage }).message)]
							: [],
					),
				);
				for (const version of everSaved) expect(logged.has(version), version).toBe(true);
				const { path } = await store.open(chatId);
				const onPath = path.filter((record): record is MessageRecord => record.recordType === "message");
				expect(onPath.map(said)).toEqual(messages.flatMap((message) => mapUIMessage(message).records.map(said)));
			}
			const [report] = await store.verify(chatId);
			expect(report?.problems).toEqual([]);
		}),
		{ numRuns: 40 },
	);
});
