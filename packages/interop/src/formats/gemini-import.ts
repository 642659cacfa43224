import { type ContentBlock, type RecordInput, truncateText, type Usage } from "@agent/session-format";
import { assistantRecord, text } from "../content.js";
import { invalidSource, sourceLabel } from "../errors.js";
import { isObject, numberField, stringField } from "../json-lines.js";
import { RecordList } from "../record-list.js";
import type { ConvertedSession, ConvertOptions } from "../types.js";
import { Warnings } from "../warnings.js";

const FIRST_PROMPT_NAME_LENGTH = 80;

/** A Gemini CLI chat (`~/.gemini/tmp/<project>/chats/session-*.json`): one JSON document. */
export function parseGeminiChat(lines: readonly string[]): Record<string, unknown> | undefined {
	const textOf = lines.join("\n").trim();
	if (!textOf.startsWith("{")) return undefined;
	try {
		const value: unknown = JSON.parse(textOf);
		return isObject(value) && typeof value.sessionId === "string" && Array.isArray(value.messages) ? value : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Converts a Gemini CLI chat to a linear session. Record 1 keeps the chat's own fields
 * (`gemini:session`); a `user` message is a user message; a `gemini` message is an assistant
 * message (its thoughts as thinking blocks, its text, its tool calls), followed by one tool
 * result per tool call that has a result; `info`, `error` and `warning` messages are kept as
 * custom records (the CLI shows them, the model never saw them).
 */
export function convertGemini(lines: readonly string[], options: ConvertOptions = {}): ConvertedSession {
	const chat = parseGeminiChat(lines);
	if (!chat) {
		throw invalidSource(
			sourceLabel(options.sourcePath),
			'is not a Gemini CLI chat ({"sessionId":...,"messages":[...]})',
			"Check that this is a chat file (~/.gemini/tmp/<project>/chats/session-*.json), or use --from auto",
		);
	}
	const warnings = new Warnings();
	const list = new RecordList(warnings);
	const { messages, ...fields } = chat;
	const startTime = stringField(chat, "startTime");
	list.custom("gemini:session", fields, null, startTime);
	let model: string | undefined;
	(messages as unknown[]).forEach((message, index) => {
		if (!isObject(message)) {
			warnings.add(`message ${index + 1} is not a JSON object; kept as a custom record (gemini:message)`);
			list.custom("gemini:message", message);
			return;
		}
		const timestamp = stringField(message, "timestamp");
		if (message.type === "user") {
			list.add(stamp({ recordType: "message", role: "user", content: userContent(message.content) }, timestamp));
		} else if (message.type === "gemini") {
			model = stringField(message, "model") ?? model;
			geminiMessage(message, list, timestamp, model);
		} else {
			const customType = `gemini:${String(message.type)}`;
			warnings.add(
				`${String(message.type)} messages are the CLI's own; kept as custom records (${customType}), not sent to the LLM`,
			);
			list.custom(customType, message, undefined, timestamp);
		}
	});
	const result: ConvertedSession = {
		format: "gemini",
		sourceId: chat.sessionId as string,
		records: list.records,
		warnings: warnings.list(),
	};
	if (startTime) result.createdAt = startTime;
	const name = stringField(chat, "summary") ?? firstPrompt(messages as unknown[]);
	if (name) result.name = name;
	if (model) result.model = `google/${model}`;
	return result;
}

function geminiMessage(
	message: Record<string, unknown>,
	list: RecordList,
	timestamp: string | undefined,
	model: string | undefined,
): void {
	const content: ContentBlock[] = [];
	for (const thought of Array.isArray(message.thoughts) ? message.thoughts : []) {
		if (!isObject(thought)) continue;
		const subject = stringField(thought, "subject");
		const description = stringField(thought, "description") ?? "";
		content.push({ type: "thinking", thinking: subject ? `**${subject}** ${description}` : description });
	}
	const answer =
		typeof message.content === "string"
			? message.content
			: userContent(message.content)
					.map((b) => (b.type === "text" ? b.text : ""))
					.join("");
	if (answer !== "") content.push(text(answer));
	const calls = (Array.isArray(message.toolCalls) ? message.toolCalls : []).filter(
		(call): call is Record<string, unknown> =>
			isObject(call) &&
			typeof call.id === "string" &&
			call.id !== "" &&
			typeof call.name === "string" &&
			call.name !== "",
	);
	for (const call of calls) {
		content.push({
			type: "toolCall",
			id: call.id as string,
			name: call.name as string,
			arguments: isObject(call.args) ? call.args : {},
		});
	}
	const record = assistantRecord({
		content,
		api: "google-generative-ai",
		provider: "google",
		stopReason: calls.length > 0 ? "toolUse" : "stop",
		model,
		usage: geminiUsage(message.tokens),
	});
	list.add(stamp(record, timestamp));
	for (const call of calls) {
		if (!Array.isArray(call.result)) continue;
		const status = stringField(call, "status");
		list.add(
			stamp(
				{
					recordType: "message",
					role: "toolResult",
					toolCallId: call.id as string,
					toolName: call.name as string,
					content: resultContent(call.result),
					isError: status !== undefined && status !== "success",
				},
				stringField(call, "timestamp") ?? timestamp,
			),
		);
	}
}

/** A tool call's result parts: the function response's output (or the response as JSON) and any text parts after it. */
function resultContent(parts: readonly unknown[]): ContentBlock[] {
	const out: ContentBlock[] = [];
	for (const part of parts) {
		if (!isObject(part)) continue;
		if (isObject(part.functionResponse)) {
			const response = part.functionResponse.response;
			const output = isObject(response) ? (response.output ?? response.error) : undefined;
			out.push(text(typeof output === "string" ? output : JSON.stringify(response ?? null)));
		} else if (typeof part.text === "string") out.push(text(part.text));
	}
	return out;
}

/** User content: a string, or parts with text. */
function userContent(value: unknown): ContentBlock[] {
	if (typeof value === "string") return [text(value)];
	const out: ContentBlock[] = [];
	for (const part of Array.isArray(value) ? value : [])
		if (isObject(part) && typeof part.text === "string") out.push(text(part.text));
	return out;
}

/** Gemini's token counts (input includes the cached part; thoughts are output) as ours. */
function geminiUsage(value: unknown): Usage | undefined {
	if (!isObject(value)) return undefined;
	const input = numberField(value, "input");
	const output = numberField(value, "output");
	if (input === undefined || output === undefined) return undefined;
	const cached = numberField(value, "cached") ?? 0;
	const thoughts = numberField(value, "thoughts") ?? 0;
	return {
		input: Math.max(0, input - cached),
		output: output + thoughts,
		cacheRead: cached,
		cacheWrite: 0,
		totalTokens: numberField(value, "total") ?? input + output + thoughts,
	};
}

function firstPrompt(messages: readonly unknown[]): string | undefined {
	for (const message of messages) {
		if (!isObject(message) || message.type !== "user") continue;
		const line = userContent(message.content)
			.map((b) => (b.type === "text" ? b.text : ""))
			.join(" ")
			.replace(/\s+/g, " ")
			.trim();
		if (line) return truncateText(line, FIRST_PROMPT_NAME_LENGTH);
	}
	return undefined;
}

function stamp(record: RecordInput, timestamp: string | undefined): RecordInput {
	if (timestamp) record.timestamp = timestamp;
	return record;
}
