import { type RecordInput, type StopReason, stopReasonSchema, type Usage } from "@agent/session-format";
import { ASSISTANT_BLOCKS, piContent, text, USER_BLOCKS } from "../content.js";
import { isObject, numberField, stringField } from "../json-lines.js";

/** The customType prefix of pi entries kept as they are (custom records and custom messages). */
export const PI_PREFIX = "pi:";

/** The customType of a pi `bashExecution` message (a custom_message, or a custom record when excluded from context). */
export const PI_BASH_TYPE = "pi:bashExecution";

/** A pi message mapped to a record, or the reason it is kept as a custom record instead. */
export type PiMessageMapping = { record: RecordInput; droppedFields?: string[] } | { keep: string };

const STOP_REASONS: ReadonlySet<string> = new Set(stopReasonSchema.options);
const USER_FIELDS = new Set(["role", "content", "timestamp"]);
const ASSISTANT_FIELDS = new Set([
	"role",
	"content",
	"api",
	"provider",
	"model",
	"usage",
	"stopReason",
	"errorMessage",
	"timestamp",
]);
const TOOL_RESULT_FIELDS = new Set(["role", "toolCallId", "toolName", "content", "details", "isError", "timestamp"]);

/** Maps the `message` of a pi message entry (`entry` is the whole entry, kept for round trips). */
export function mapPiMessage(message: unknown, entry: Record<string, unknown>): PiMessageMapping {
	if (!isObject(message) || typeof message.role !== "string") return { keep: "a message entry without a message role" };
	switch (message.role) {
		case "user": {
			const content = piContent(message.content, USER_BLOCKS);
			if (!content) return { keep: "a user message with content pi-ai does not define" };
			return withDropped({ recordType: "message", role: "user", content }, message, USER_FIELDS);
		}
		case "assistant":
			return mapAssistant(message);
		case "toolResult": {
			const content = piContent(message.content, USER_BLOCKS);
			const toolCallId = stringField(message, "toolCallId");
			if (!content || !toolCallId) return { keep: "a toolResult message without a toolCallId or valid content" };
			const record: RecordInput = { recordType: "message", role: "toolResult", content, toolCallId };
			if (typeof message.toolName === "string") record.toolName = message.toolName;
			record.isError = message.isError === true;
			if (message.details !== undefined) record.details = message.details;
			return withDropped(record, message, TOOL_RESULT_FIELDS);
		}
		case "bashExecution":
			if (message.excludeFromContext === true) return { keep: "" };
			return {
				record: {
					recordType: "custom_message",
					customType: PI_BASH_TYPE,
					content: [text(bashExecutionText(message))],
					display: true,
					details: entry,
				},
			};
		case "custom":
		case "hookMessage": {
			const content = piContent(message.content, USER_BLOCKS);
			const customType = stringField(message, "customType");
			if (!content || !customType) return { keep: "a custom message without a customType or valid content" };
			const record: RecordInput = {
				recordType: "custom_message",
				customType,
				content: content as Extract<RecordInput, { recordType: "custom_message" }>["content"],
				display: message.display !== false,
			};
			if (message.details !== undefined) record.details = message.details;
			return { record };
		}
		default:
			return { keep: `a message with role ${JSON.stringify(message.role)}, which has no equivalent` };
	}
}

function mapAssistant(message: Record<string, unknown>): PiMessageMapping {
	const content = piContent(message.content, ASSISTANT_BLOCKS);
	if (!content) return { keep: "an assistant message with content pi-ai does not define" };
	const record: RecordInput = { recordType: "message", role: "assistant", content };
	const api = stringField(message, "api");
	const provider = stringField(message, "provider");
	const model = stringField(message, "model");
	if (api !== undefined) record.api = api;
	if (provider !== undefined) record.provider = provider;
	if (model !== undefined) record.model = model;
	const usage = piUsage(message.usage);
	if (usage) record.usage = usage;
	if (typeof message.stopReason === "string" && STOP_REASONS.has(message.stopReason)) {
		record.stopReason = message.stopReason as StopReason;
	}
	const errorMessage = stringField(message, "errorMessage");
	if (errorMessage !== undefined) record.errorMessage = errorMessage;
	return withDropped(record, message, ASSISTANT_FIELDS);
}

/** pi-ai usage, when it has the numbers ours needs. */
export function piUsage(value: unknown): Usage | undefined {
	if (!isObject(value)) return undefined;
	const input = numberField(value, "input");
	const output = numberField(value, "output");
	if (input === undefined || output === undefined) return undefined;
	const cacheRead = numberField(value, "cacheRead") ?? 0;
	const cacheWrite = numberField(value, "cacheWrite") ?? 0;
	const usage: Usage = {
		input,
		output,
		cacheRead,
		cacheWrite,
		totalTokens: numberField(value, "totalTokens") ?? input + output + cacheRead + cacheWrite,
	};
	if (isObject(value.cost)) {
		const cost = value.cost;
		usage.cost = {
			input: numberField(cost, "input") ?? 0,
			output: numberField(cost, "output") ?? 0,
			cacheRead: numberField(cost, "cacheRead") ?? 0,
			cacheWrite: numberField(cost, "cacheWrite") ?? 0,
			total: numberField(cost, "total") ?? 0,
		};
	}
	return usage;
}

/**
 * The user-message text pi sends the LLM for a `!command` run: the command, its output in a
 * fence (or "(no output)"), then whether it was cancelled, its non-zero exit code, and where
 * the full output went when it was truncated.
 */
export function bashExecutionText(message: Record<string, unknown>): string {
	const command = stringField(message, "command") ?? "";
	const output = stringField(message, "output") ?? "";
	let out = `Ran \`${command}\`\n`;
	out += output ? `\`\`\`\n${output}\n\`\`\`` : "(no output)";
	const exitCode = message.exitCode;
	if (message.cancelled === true) out += "\n\n(command cancelled)";
	else if (typeof exitCode === "number" && exitCode !== 0) out += `\n\nCommand exited with code ${exitCode}`;
	const fullOutputPath = stringField(message, "fullOutputPath");
	if (message.truncated === true && fullOutputPath) out += `\n\n[Output truncated. Full output: ${fullOutputPath}]`;
	return out;
}

function withDropped(
	record: RecordInput,
	message: Record<string, unknown>,
	known: ReadonlySet<string>,
): { record: RecordInput; droppedFields?: string[] } {
	const dropped = Object.keys(message).filter((key) => !known.has(key) && message[key] !== undefined);
	return dropped.length > 0 ? { record, droppedFields: dropped } : { record };
}
