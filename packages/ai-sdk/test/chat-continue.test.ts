// A reply that goes on under its own id (a tool the client answers, then the model continues)
// continues its records instead of branching; and the model messages of a compacted chat are its
// summary and what the compaction kept, cut at the step where it cut.
import { contentText, type MessageRecord, SessionTree } from "@agent/session-format/reading";
import { type ModelMessage, tool, type UIMessage } from "ai";
import { expect, it } from "vitest";
import * as z from "zod";
import { chatTurn, userMessage } from "./route.js";
import { scriptedModel, step, text, toolCall } from "./scripted-model.js";
import { describeOnStores, recordsOf } from "./stores.js";

/** A tool without execute: the client answers it (useChat's addToolOutput). */
const clientTools = { confirm: tool({ inputSchema: z.object({ question: z.string() }) }) };

const said = (messages: ModelMessage[]) => JSON.stringify(messages);

describeOnStores("replies that go on, and compacted chats", (use) => {
	it("a reply continued under its id (a client-side tool's output, then more steps) continues its records: no branch, nothing twice", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat();
		const model = scriptedModel([
			step("tool-calls", text("t1", "I need to check."), toolCall("call-1", "confirm", { question: "Delete it?" })),
			step("stop", text("t2", "Deleted.")),
		]);
		const first = await chatTurn(chats, chatId, userMessage("u1", "Delete old.txt"), model, { tools: clientTools });
		await first.response.text();
		const [question, asked] = (await first.finished).messages as [UIMessage, UIMessage];
		expect(asked.parts.at(-1)).toMatchObject({ type: "tool-confirm", state: "input-available" });

		// The user answers in the browser; useChat sends the reply back with the tool's output.
		const answered: UIMessage = {
			...asked,
			parts: asked.parts.map((part) =>
				part.type === "tool-confirm" ? { ...part, state: "output-available", output: "yes" } : part,
			) as UIMessage["parts"],
		};
		const second = await chatTurn(chats, chatId, answered, model, { tools: clientTools });
		await second.response.text();
		const done = await second.finished;
		expect(done.messages.map((message) => message.id)).toEqual([question.id, asked.id]);

		expect(await chats.loadChat(chatId)).toEqual(done.messages);
		const records = await recordsOf(target.store, chatId);
		expect(new SessionTree(records).branchPoints()).toEqual([]);
		const messages = records.filter((record): record is MessageRecord => record.recordType === "message");
		expect(messages.map((record) => [record.role, contentText(record.content)])).toEqual([
			["user", "Delete old.txt"],
			["assistant", "I need to check."],
			["toolResult", "yes"],
			["assistant", "Deleted."],
		]);
		expect((await target.store.open(chatId)).context.messages).toHaveLength(4);
	});

	it("model messages after a compaction: the summary, then the kept steps of the reply it cut inside, then what came later", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat();
		const long: UIMessage = {
			id: "a2",
			role: "assistant",
			parts: [
				{ type: "step-start" },
				{ type: "text", text: "Step one: reading." },
				{ type: "tool-read", toolCallId: "r1", state: "output-available", input: { path: "a.txt" }, output: "alpha" },
				{ type: "step-start" },
				{ type: "text", text: "Step two: writing." },
				{ type: "tool-write", toolCallId: "w1", state: "output-available", input: { path: "b.txt" }, output: "ok" },
				{ type: "step-start" },
				{ type: "text", text: "All done." },
			],
		};
		const early = [
			userMessage("u1", "First question"),
			{ id: "a1", role: "assistant", parts: [{ type: "text", text: "First answer" }] } as UIMessage,
			userMessage("u2", "Copy a.txt to b.txt"),
			long,
		];
		await chats.saveChat({ chatId, messages: early });
		const records = await recordsOf(target.store, chatId);
		const stepTwo = records.find(
			(record) => record.recordType === "message" && contentText(record.content) === "Step two: writing.",
		);
		await target.store.append(chatId, [
			{
				recordType: "compaction",
				firstKeptSeq: stepTwo?.seq as number,
				summary: "## Goal\nCopy a file.",
				tokensBefore: 40,
				readFiles: ["a.txt"],
				modifiedFiles: [],
			},
		]);
		const later = [
			...early,
			userMessage("u3", "Thanks"),
			{ id: "a3", role: "assistant", parts: [{ type: "text", text: "You're welcome." }] } as UIMessage,
		];
		expect(await chats.saveChat({ chatId, messages: later })).toMatchObject({ written: 4, branched: false });

		const model = await chats.modelMessages(chatId);
		expect(model[0]).toMatchObject({ role: "user" });
		expect(said(model.slice(0, 1))).toContain("Copy a file.");
		expect(said(model)).not.toContain("First question");
		expect(said(model)).not.toContain("Step one: reading.");
		expect(said(model)).toContain("Step two: writing.");
		expect(said(model)).toContain("All done.");
		expect(said(model)).toContain("You're welcome.");
		expect(model.map((message) => message.role)).toEqual([
			"user",
			"assistant",
			"tool",
			"assistant",
			"user",
			"assistant",
		]);
		// The chat itself is whole: the compaction only shortens what the model is sent.
		expect(await chats.loadChat(chatId)).toEqual(later);
	});
});
