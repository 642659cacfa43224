import type { ContentBlock, RecordInput, Usage } from "@agent/session-format";
import { assistantRecord, text } from "../content.js";
import { isObject, numberField, stringField } from "../json-lines.js";

/**
 * The records of one Gemini CLI message: a user message; or for a `gemini` message an assistant
 * message (its thoughts as thinking blocks, its text, its tool calls) and one tool result per tool
 * call that has a result. Other types (info, error, warning) are the CLI's own: undefined.
 */
export function geminiRecords(message: Record<string, unknown>, model: string | undefined): RecordInput[] | undefined {
	const timestamp = stringField(message, "timestamp");
	if (message.type === "user") {
		return [stamp({ recordType: "message", role: "user", content: userContent(message.content) }, timestamp)];
	}
	if (message.type !== "gemini") return undefined;
	return geminiMessage(message, timestamp, stringField(message, "model") ?? model);
}

function geminiMessage(
	message: Record<string, unknown>,
	timestamp: string | undefined,
	model: string | undefined,
): RecordInput[] {
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
	const out = [stamp(record, timestamp)];
	for (const call of calls) {
		if (!Array.isArray(call.result)) continue;
		const status = stringField(call, "status");
		out.push(
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
	return out;
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
export function userContent(value: unknown): ContentBlock[] {
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

function stamp(record: RecordInput, timestamp: string | undefined): RecordInput {
	if (timestamp) record.timestamp = timestamp;
	return record;
}
