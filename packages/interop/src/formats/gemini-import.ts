import { promptName } from "../content.js";
import { invalidSource, sourceLabel } from "../errors.js";
import { isObject, stringField } from "../json-lines.js";
import { RecordList } from "../record-list.js";
import type { ConvertedSession, ConvertOptions } from "../types.js";
import { Warnings } from "../warnings.js";
import { readGeminiLines } from "./gemini-lines.js";
import { geminiRecords, userContent } from "./gemini-messages.js";

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
 * Converts a Gemini CLI chat: the JSON document of older versions (`session-*.json`) or the JSON
 * lines of newer ones (`session-*.jsonl`, see readGeminiLines). Record 1 keeps the chat's own
 * fields (`gemini:session`); a `user` message is a user message; a `gemini` message is an
 * assistant message (its thoughts as thinking blocks, its text, its tool calls), followed by one
 * tool result per tool call that has a result; `info`, `error` and `warning` messages are kept as
 * custom records (the CLI shows them, the model never saw them).
 */
export function convertGemini(lines: readonly string[], options: ConvertOptions = {}): ConvertedSession {
	const chat = parseGeminiChat(lines);
	if (chat) return convertDocument(chat);
	const warnings = new Warnings();
	const read = readGeminiLines(lines, warnings);
	if (!read) {
		throw invalidSource(
			sourceLabel(options.sourcePath),
			'is not a Gemini CLI chat (a JSON document {"sessionId":...,"messages":[...]}, or JSON lines that start with {"sessionId":...,"projectHash":...})',
			"Check that this is a chat file (~/.gemini/tmp/<project>/chats/session-*.json or .jsonl), or use --from auto",
		);
	}
	const result: ConvertedSession = {
		format: "gemini",
		sourceId: read.header.sessionId as string,
		records: read.list.records,
		warnings: warnings.list(),
	};
	const startTime = stringField(read.header, "startTime");
	if (startTime) result.createdAt = startTime;
	const name = stringField(read.meta, "summary") ?? firstPrompt(read.prompts);
	if (name) result.name = name;
	if (read.model) result.model = `google/${read.model}`;
	// A sub-agent's chat lives in chats/<the parent session's id>/<its id>.jsonl.
	if (read.header.kind === "subagent" && options.sourcePath) {
		const parent = options.sourcePath.split(/[\\/]/).at(-2);
		if (parent && parent !== result.sourceId) result.parentSourceId = parent;
	}
	return result;
}

/** The JSON document form: the whole chat rewritten as it grows. */
function convertDocument(chat: Record<string, unknown>): ConvertedSession {
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
		model = stringField(message, "model") ?? model;
		const records = geminiRecords(message, model);
		if (records) {
			for (const record of records) list.add(record);
			return;
		}
		const customType = `gemini:${String(message.type)}`;
		warnings.add(
			`${String(message.type)} messages are the CLI's own; kept as custom records (${customType}), not sent to the LLM`,
		);
		list.custom(customType, message, undefined, stringField(message, "timestamp"));
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

function firstPrompt(messages: readonly unknown[]): string | undefined {
	for (const message of messages) {
		if (!isObject(message) || message.type !== "user") continue;
		const name = promptName(
			userContent(message.content)
				.map((b) => (b.type === "text" ? b.text : ""))
				.join(" "),
		);
		if (name) return name;
	}
	return undefined;
}
