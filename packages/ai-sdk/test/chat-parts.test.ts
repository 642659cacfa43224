// Every kind of UIMessage part round-trips exactly, and maps to our records where it has a
// meaning there; bad input is refused with an error that names the message and field, and
// writes nothing.
import { isAgentSessionError, type MessageRecord } from "@agent/session-format/reading";
import type { UIMessage } from "ai";
import { expect, it } from "vitest";
import { describeOnStores, recordsOf } from "./stores.js";

const everyPart: UIMessage[] = [
	{ id: "s1", role: "system", parts: [{ type: "text", text: "Be brief." }] },
	{
		id: "u1",
		role: "user",
		metadata: { createdAt: "2026-01-01T00:00:00.000Z", nested: { __proto__: 1, list: [1, null, "x"] } },
		parts: [
			{ type: "text", text: "Compare these 👩‍👩‍👧 and explain" },
			{ type: "file", mediaType: "application/pdf", filename: "spec.pdf", url: "https://example.com/spec.pdf" },
			{ type: "data-context", id: "ctx-1", data: { page: 3 } },
		],
	},
	{
		id: "a1",
		role: "assistant",
		metadata: { model: "mock-1", totalTokens: 99 },
		parts: [
			{ type: "step-start" },
			{ type: "reasoning", text: "Two files.", state: "done", providerMetadata: { mock: { signature: "sig" } } },
			{ type: "source-url", sourceId: "src-1", url: "https://example.com/a", title: "A" },
			{ type: "source-document", sourceId: "src-2", mediaType: "text/plain", title: "B", filename: "b.txt" },
			{ type: "tool-lookup", toolCallId: "c1", state: "output-available", input: { q: "a" }, output: "found a" },
			{ type: "tool-lookup", toolCallId: "c2", state: "output-error", input: { q: "b" }, errorText: "no b" },
			{
				type: "tool-delete",
				toolCallId: "c3",
				state: "output-denied",
				input: { path: "/" },
				approval: { id: "ap-1", approved: false, reason: "too risky" },
			},
			{
				type: "tool-delete",
				toolCallId: "c4",
				state: "approval-requested",
				input: { path: "/tmp" },
				approval: { id: "ap-2" },
			},
			{ type: "tool-lookup", toolCallId: "c5", state: "input-streaming", input: { q: "pa" } },
			{ type: "tool-lookup", toolCallId: "c6", state: "input-available", input: "plain" },
			{
				type: "dynamic-tool",
				toolName: "mcp_search",
				toolCallId: "c7",
				state: "output-available",
				input: {},
				output: { hits: 2 },
			},
			{ type: "step-start" },
			{ type: "text", text: "Done.", state: "done" },
			{ type: "file", mediaType: "image/gif", url: "data:image/gif;base64,R0lGODlhAQABAAAAACw=" },
			{ type: "data-status", data: { ok: true } },
		],
	},
];

const messageRecords = (records: Awaited<ReturnType<typeof recordsOf>>) =>
	records.filter((record): record is MessageRecord => record.recordType === "message");

describeOnStores("UIMessage parts", (use) => {
	it("every part type loads back exactly as saved: ids, metadata, tool states, files, sources, data, steps", async () => {
		const { chats } = use();
		const chatId = await chats.createChat();
		expect((await chats.saveChat({ chatId, messages: everyPart })).written).toBeGreaterThan(0);
		expect(await chats.loadChat(chatId)).toEqual(everyPart);
		expect(JSON.stringify(await chats.loadChat(chatId))).toBe(JSON.stringify(everyPart));
	});

	it("maps what has a meaning for the LLM to our records: text, thinking, tool calls with their results, images", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat();
		await chats.saveChat({ chatId, messages: everyPart, model: "mock/mock-1" });
		const records = messageRecords(await recordsOf(target.store, chatId));
		expect(records.map((record) => record.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"toolResult",
			"toolResult",
			"toolResult",
			"assistant",
		]);
		expect(records[0]?.content).toEqual([
			{ type: "text", text: "Compare these 👩‍👩‍👧 and explain" },
			{ type: "text", text: "[file: spec.pdf (application/pdf) https://example.com/spec.pdf]" },
		]);
		expect(records[1]?.content).toEqual([
			{ type: "thinking", thinking: "Two files." },
			{ type: "toolCall", id: "c1", name: "lookup", arguments: { q: "a" } },
			{ type: "toolCall", id: "c2", name: "lookup", arguments: { q: "b" } },
			{ type: "toolCall", id: "c3", name: "delete", arguments: { path: "/" } },
			{ type: "toolCall", id: "c4", name: "delete", arguments: { path: "/tmp" } },
			{ type: "toolCall", id: "c5", name: "lookup", arguments: { q: "pa" } },
			{ type: "toolCall", id: "c6", name: "lookup", arguments: { input: "plain" } },
			{ type: "toolCall", id: "c7", name: "mcp_search", arguments: {} },
		]);
		expect(
			records
				.slice(2, 6)
				.map(({ toolCallId, toolName, isError, content }) => ({ toolCallId, toolName, isError, content })),
		).toEqual([
			{ toolCallId: "c1", toolName: "lookup", isError: false, content: [{ type: "text", text: "found a" }] },
			{ toolCallId: "c2", toolName: "lookup", isError: true, content: [{ type: "text", text: "no b" }] },
			{
				toolCallId: "c3",
				toolName: "delete",
				isError: true,
				content: [{ type: "text", text: "the tool call was denied: too risky" }],
			},
			{ toolCallId: "c7", toolName: "mcp_search", isError: false, content: [{ type: "text", text: '{"hits":2}' }] },
		]);
		expect(records[6]?.content).toEqual([
			{ type: "text", text: "Done." },
			{ type: "image", mimeType: "image/gif", data: "R0lGODlhAQABAAAAACw=" },
		]);
		expect(records[6]).toMatchObject({ provider: "mock", model: "mock-1" });
		expect((await target.store.metadata(chatId)).model).toBe("mock/mock-1");
	});

	it("refuses messages that are not UIMessages, naming the message and field, and writes nothing", async () => {
		const { chats, target } = use();
		const chatId = await chats.createChat();
		await chats.saveChat({ chatId, messages: everyPart.slice(0, 2) });
		const before = await target.store.metadata(chatId);
		const refusals: Array<[unknown, RegExp]> = [
			[{ id: "u1" }, /saveChat: messages must be an array of UIMessages/],
			[[{ role: "user", parts: [] }], /messages\[0\]\.id must be a non-empty string/],
			[[{ id: "x", role: "robot", parts: [] }], /messages\[0\]\.role must be "user", "assistant" or "system"/],
			[[{ id: "x", role: "user", parts: [{ text: "no type" }] }], /messages\[0\]\.parts must be an array of parts/],
			[[...everyPart.slice(0, 2), { ...everyPart[1] }], /messages\[2\]\.id "u1" is also the id of messages\[1\]/],
		];
		for (const [messages, message] of refusals) {
			const error = await chats.saveChat({ chatId, messages: messages as UIMessage[] }).catch((caught) => caught);
			expect(isAgentSessionError(error, "INVALID_ARGUMENT"), String(error)).toBe(true);
			expect((error as Error).message).toMatch(/^@agent\/ai-sdk: /);
			expect((error as Error).message).toMatch(message);
		}
		// What the store refuses is reported as the message it came from.
		const tooLong: UIMessage = {
			id: "a9",
			role: "assistant",
			parts: [{ type: "tool-x", toolCallId: "c".repeat(5000), state: "input-available", input: {} }],
		};
		const error = await chats
			.saveChat({ chatId, messages: [...everyPart.slice(0, 2), tooLong] })
			.catch((caught) => caught);
		expect(isAgentSessionError(error, "INVALID_RECORD"), String(error)).toBe(true);
		expect((error as Error).message).toMatch(/saveChat: messages\[2\] \(id "a9"\) cannot be stored: .*id/);
		expect((await target.store.metadata(chatId)).lastSeq).toBe(before.lastSeq);
		expect(await chats.loadChat(chatId)).toEqual(everyPart.slice(0, 2));
	});

	it("names a chat id that is not one", async () => {
		const { chats } = use();
		for (const chatId of ["not-a-ulid", "01ARZ3NDEKTSV4RRFFQ69G5FAV"]) {
			const error = await chats.loadChat(chatId).catch((caught) => caught);
			expect(isAgentSessionError(error), String(error)).toBe(true);
			expect(["INVALID_SESSION_ID", "SESSION_NOT_FOUND"]).toContain((error as { code: string }).code);
		}
		const error = await chats.loadChat(undefined as unknown as string).catch((caught) => caught);
		expect((error as Error).message).toMatch(/loadChat: chatId must be the id createChat returned/);
	});
});
