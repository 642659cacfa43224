import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { messageRecordOf, toolNamesOf } from "./messages.js";

const none = new Map<string, string>();

describe("LangChain messages as message records", () => {
	it("a human message is a user message with its text and inline images", () => {
		const message = new HumanMessage({
			content: [
				{ type: "text", text: "What is this?" },
				{ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
			],
		});
		expect(messageRecordOf(message, none)).toEqual({
			recordType: "message",
			role: "user",
			content: [
				{ type: "text", text: "What is this?" },
				{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
			],
		});
	});

	it("an AI message is an assistant message: thinking (with its signature), text, tool calls, usage, model", () => {
		const message = new AIMessage({
			content: [
				{ type: "thinking", thinking: "Paris means the weather tool.", signature: "sig-1" },
				{ type: "text", text: "Let me look." },
			],
			tool_calls: [{ id: "call_1", name: "weather", args: { city: "Paris" } }],
			usage_metadata: { input_tokens: 12, output_tokens: 7, total_tokens: 19 },
			response_metadata: { model_name: "claude-x", model_provider: "anthropic" },
		});
		expect(messageRecordOf(message, none)).toEqual({
			recordType: "message",
			role: "assistant",
			content: [
				{ type: "thinking", thinking: "Paris means the weather tool.", thinkingSignature: "sig-1" },
				{ type: "text", text: "Let me look." },
				{ type: "toolCall", id: "call_1", name: "weather", arguments: { city: "Paris" } },
			],
			usage: { input: 12, output: 7, cacheRead: 0, cacheWrite: 0, totalTokens: 19 },
			model: "claude-x",
			provider: "anthropic",
		});
	});

	it("a tool message is a tool result; a nameless one takes its tool's name from the call", () => {
		const call = new AIMessage({ content: "", tool_calls: [{ id: "call_9", name: "search", args: {} }] });
		const result = new ToolMessage({ content: "no hits", tool_call_id: "call_9", status: "error" });
		expect(messageRecordOf(result, toolNamesOf([call, result]))).toEqual({
			recordType: "message",
			role: "toolResult",
			toolCallId: "call_9",
			toolName: "search",
			isError: true,
			content: [{ type: "text", text: "no hits" }],
		});
	});

	it("a system message, or anything else in the list, is a custom record that keeps its text", () => {
		expect(messageRecordOf(new SystemMessage("Be brief."), none)).toEqual({
			recordType: "custom",
			customType: "langgraph.message",
			data: { type: "system", text: "Be brief." },
		});
		expect(messageRecordOf({ role: "user", content: "plain" }, none)).toEqual({
			recordType: "custom",
			customType: "langgraph.message",
			data: { type: "unknown", text: '{"role":"user","content":"plain"}' },
		});
	});

	it("a message the log would refuse (a tool name past 256 characters) is a custom record, never a failed put", () => {
		const name = "t".repeat(300);
		const call = new AIMessage({ content: "", tool_calls: [{ id: "c1", name, args: {} }] });
		expect(messageRecordOf(call, none)).toMatchObject({ recordType: "custom", data: { type: "ai" } });
	});
});
