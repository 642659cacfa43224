// Regenerate and edit through the AI SDK: the new path is what loadChat gives, the old one stays
// in the log as a branch, and the operators' CLI draws both (`agent-sessions show --tree`).
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { contentText, SessionTree, type StoredRecord } from "@agent/session-format/reading";
import type { UIMessage } from "ai";
import { expect, it } from "vitest";
import { UI_MESSAGE_TYPE } from "../src/index.js";
import { chatTurn, userMessage } from "./route.js";
import { scriptedModel, step, text } from "./scripted-model.js";
import { describeOnStores, recordsOf, type TestStore } from "./stores.js";

const CLI = fileURLToPath(new URL("../node_modules/agent-sessions/dist/cli/agent-sessions.cjs", import.meta.url));

const answer = (words: string) => scriptedModel([step("stop", text("t", words))]);

/** One request and its reply, through the AI SDK; resolves with the chat's messages after the save. */
async function turn(chats: Parameters<typeof chatTurn>[0], chatId: string, message: UIMessage, words: string) {
	const { response, finished } = await chatTurn(chats, chatId, message, answer(words));
	await response.text();
	return (await finished).messages;
}

/** The seq of the record holding the latest saved version of message `id`. */
function closingSeq(records: StoredRecord[], id: string): number {
	const closing = records.filter(
		(record) =>
			record.recordType === "custom" &&
			record.customType === UI_MESSAGE_TYPE &&
			(record.data as { message: UIMessage }).message.id === id,
	);
	return (closing.at(-1) as StoredRecord).seq;
}

async function cli(target: TestStore, ...args: string[]): Promise<string> {
	const where = target.kind === "file" ? ["--home", target.location] : ["--store", target.location];
	const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...where, ...args], {
		env: { ...process.env, NO_COLOR: "1", AGENT_HOME: "", AGENT_STORE: "" },
	});
	return stdout;
}

describeOnStores("regenerate and edit", (use) => {
	it("regenerate: loadChat gives the new answer, the previous one stays in the log beside it", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat();
		const question = userMessage("u1", "Name a colour");
		const [, first] = await turn(chats, chatId, question, "Blue.");
		// useChat's regenerate() sends the question again: messagesWith puts it last, dropping the old answer.
		const [, second] = await turn(chats, chatId, question, "Green.");

		expect(first?.id).not.toBe(second?.id);
		expect(await chats.loadChat(chatId)).toEqual([question, second]);
		const records = await recordsOf(target.store, chatId);
		const tree = new SessionTree(records);
		const branchPoint = closingSeq(records, "u1");
		expect(tree.children(branchPoint)).toHaveLength(2);
		const reply = (words: string) =>
			records.find(
				(record) =>
					record.recordType === "message" && record.role === "assistant" && contentText(record.content) === words,
			) as StoredRecord;
		expect(tree.parentOf(reply("Blue.").seq)).toBe(branchPoint);
		expect(tree.parentOf(reply("Green.").seq)).toBe(branchPoint);

		// An app that sends every message and saves [question, new answer] directly branches the same way.
		const third: UIMessage = { id: "a3", role: "assistant", parts: [{ type: "text", text: "Red." }] };
		expect(await chats.saveChat({ chatId, messages: [question, third] })).toMatchObject({ branched: true });
		expect(await chats.loadChat(chatId)).toEqual([question, third]);
		const after = new SessionTree(await recordsOf(target.store, chatId));
		expect(after.children(branchPoint)).toHaveLength(3);
	});

	it("edit: an earlier user message changed in place branches from its parent; the old path stays whole", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat();
		await turn(chats, chatId, userMessage("u1", "Plan a trip to Rome"), "Day 1: the Forum.");
		const before = await turn(chats, chatId, userMessage("u2", "And day 2?"), "Day 2: the Vatican.");
		const oldLeaf = closingSeq(await recordsOf(target.store, chatId), before[3]?.id as string);

		const edited = userMessage("u1", "Plan a trip to Florence");
		const after = await turn(chats, chatId, edited, "Day 1: the Uffizi.");
		expect(after.map((message) => message.id)).toEqual(["u1", after[1]?.id]);
		expect(await chats.loadChat(chatId)).toEqual(after);

		// Nothing was deleted: moving the leaf back gives the chat exactly as it was.
		await target.store.branch(chatId, oldLeaf);
		expect(await chats.loadChat(chatId)).toEqual(before);
	});

	it("a shorter array moves the leaf back (nothing is deleted), and saving it again writes nothing", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat();
		const messages = await turn(chats, chatId, userMessage("u1", "Hello"), "Hi there.");
		const lastSeq = (await target.store.metadata(chatId)).lastSeq;
		expect(await chats.saveChat({ chatId, messages: messages.slice(0, 1) })).toEqual({ written: 1, branched: true });
		expect(await chats.loadChat(chatId)).toEqual(messages.slice(0, 1));
		expect(await chats.saveChat({ chatId, messages: messages.slice(0, 1) })).toEqual({ written: 0, branched: false });
		expect((await target.store.metadata(chatId)).lastSeq).toBe(lastSeq + 1);
		expect(await chats.saveChat({ chatId, messages: [] })).toEqual({ written: 1, branched: true });
		expect(await chats.loadChat(chatId)).toEqual([]);
	});

	it("agent-sessions show --tree draws the regenerated and the edited branches", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat({ name: "tree" });
		await turn(chats, chatId, userMessage("u1", "Pick a fruit"), "An apple.");
		await turn(chats, chatId, userMessage("u1", "Pick a fruit"), "A pear."); // regenerate
		await turn(chats, chatId, userMessage("u2", "Why?"), "Crunchy.");
		await turn(chats, chatId, userMessage("u2", "Why that one?"), "Sweet."); // edit

		const drawn = await cli(target, "show", chatId, "--tree");
		for (const words of ["Pick a fruit", "An apple.", "A pear.", "Why?", "Crunchy.", "Why that one?", "Sweet."]) {
			expect(drawn).toContain(words);
		}
		expect(drawn.match(/├─/g)?.length).toBe(2);
		const lines = drawn.split("\n");
		const sweet = lines.findIndex((line) => line.includes("Sweet."));
		expect(lines[sweet + 1]).toContain("◀ active"); // the record that closes the reply "Sweet."

		const { nodes, leafSeq } = JSON.parse(await cli(target, "show", chatId, "--tree", "--json")) as {
			leafSeq: number;
			nodes: Array<{ seq: number; children: number[]; role?: string; onActivePath: boolean }>;
		};
		expect(nodes.filter((node) => node.children.length === 2)).toHaveLength(2);
		const active = nodes.filter((node) => node.onActivePath && node.role !== undefined).map((node) => node.role);
		expect(active).toEqual(["user", "assistant", "user", "assistant"]);
		expect(leafSeq).toBe((await target.store.metadata(chatId)).lastSeq);
	});
});
