import type { ContentBlock, RecordInput, StopReason, Usage } from "@agent/session-format";
import { assistantRecord, imageFromDataUrl, text } from "../content.js";
import { isObject, numberField, stringField } from "../json-lines.js";

/** One OpenCode message with its parts, as `opencode export` prints it and the database stores it. */
export interface OpenCodeMessage {
	info: Record<string, unknown>;
	parts: Record<string, unknown>[];
}

/** What OpenCode sends for a tool whose output was pruned from the context, or that never finished. */
const CLEARED = "[Old tool result content cleared]";
const INTERRUPTED = "[Tool execution was interrupted]";

/**
 * The records of a user message: its text (parts OpenCode marks `ignored` left out), images it
 * carries as files, a subtask as the note OpenCode sends. Parts without an equivalent are returned
 * in `aside`.
 */
export function userRecords(message: OpenCodeMessage): { records: RecordInput[]; aside: Record<string, unknown>[] } {
	const content: ContentBlock[] = [];
	const aside: Record<string, unknown>[] = [];
	for (const part of message.parts) {
		if (part.type === "text" && typeof part.text === "string") {
			if (part.ignored !== true) content.push(text(part.text));
		} else if (part.type === "file") {
			const block = fileBlock(part);
			if (block) content.push(block);
			else aside.push(part);
		} else if (part.type === "subtask") {
			content.push(text(`The following tool was executed by the user: ${stringField(part, "description") ?? ""}`));
		} else aside.push(part);
	}
	return { records: [{ recordType: "message", role: "user", content }], aside };
}

/**
 * The records of an assistant message: one assistant message per step (OpenCode's model calls,
 * split at `step-start` parts, as the API received them), each followed by the results of its tool
 * parts. Reasoning becomes thinking, text text, a tool part a tool call and its result.
 */
export function assistantRecords(message: OpenCodeMessage): {
	records: RecordInput[];
	aside: Record<string, unknown>[];
} {
	const records: RecordInput[] = [];
	const aside: Record<string, unknown>[] = [];
	let content: ContentBlock[] = [];
	let results: RecordInput[] = [];
	const model = stringField(message.info, "modelID");
	const provider = stringField(message.info, "providerID") ?? "opencode";
	const flush = (usage?: Usage) => {
		if (content.length === 0 && results.length === 0) return;
		const hasCalls = content.some((block) => block.type === "toolCall");
		const record = assistantRecord({
			content,
			api: "opencode",
			provider,
			stopReason: hasCalls ? "toolUse" : "stop",
			model,
			usage,
		});
		records.push(record, ...results);
		content = [];
		results = [];
	};
	for (const part of message.parts) {
		switch (part.type) {
			case "step-start":
				flush();
				break;
			case "text":
				if (typeof part.text === "string" && part.ignored !== true) content.push(text(part.text));
				break;
			case "reasoning":
				if (typeof part.text === "string") content.push(thinking(part));
				break;
			case "tool": {
				const call = toolPart(part);
				if (call) {
					content.push(call.call);
					results.push(call.result);
				} else aside.push(part);
				break;
			}
			case "step-finish":
				aside.push(part);
				flush(usageOf(part.tokens));
				break;
			default:
				aside.push(part);
		}
	}
	flush(usageOf(message.info.tokens));
	settleLast(records, message.info);
	// Step bounds, snapshots, patches, retries and the like carry nothing of the conversation: kept aside.
	return { records, aside };
}

/** The text of a summary message (a compaction's): its text parts. */
export function summaryText(message: OpenCodeMessage): string {
	return message.parts
		.flatMap((part) => (part.type === "text" && typeof part.text === "string" ? [part.text] : []))
		.join("\n");
}

function thinking(part: Record<string, unknown>): ContentBlock {
	const block: ContentBlock = { type: "thinking", thinking: part.text as string };
	const metadata = isObject(part.metadata) ? part.metadata : {};
	for (const provider of Object.values(metadata)) {
		const signature = isObject(provider)
			? (stringField(provider, "signature") ?? stringField(provider, "encryptedContent"))
			: undefined;
		if (signature) {
			block.thinkingSignature = signature;
			break;
		}
	}
	return block;
}

function toolPart(part: Record<string, unknown>): { call: ContentBlock; result: RecordInput } | undefined {
	const id = stringField(part, "callID");
	const name = stringField(part, "tool");
	if (!id || !name) return undefined;
	const state = isObject(part.state) ? part.state : {};
	const input = isObject(state.input) ? state.input : {};
	const time = isObject(state.time) ? state.time : {};
	let output: ContentBlock[];
	let isError = false;
	if (state.status === "completed") {
		output = [text(time.compacted !== undefined ? CLEARED : (stringField(state, "output") ?? ""))];
		for (const attachment of Array.isArray(state.attachments) ? state.attachments : []) {
			const block = isObject(attachment) ? fileBlock(attachment) : undefined;
			if (block) output.push(block);
		}
	} else if (state.status === "error") {
		output = [text(stringField(state, "error") ?? "")];
		isError = true;
	} else {
		output = [text(INTERRUPTED)];
		isError = true;
	}
	return {
		call: { type: "toolCall", id, name, arguments: input },
		result: { recordType: "message", role: "toolResult", toolCallId: id, toolName: name, content: output, isError },
	};
}

/** A file part as an image block when it is an image given as data (what OpenCode sends the model as such). */
function fileBlock(part: Record<string, unknown>): ContentBlock | undefined {
	const url = stringField(part, "url");
	const mime = stringField(part, "mime") ?? "";
	if (url && mime.startsWith("image/")) return imageFromDataUrl(url);
	return undefined;
}

/** OpenCode's token counts (input without the cached part; reasoning counted as output) as ours. */
export function usageOf(value: unknown): Usage | undefined {
	if (!isObject(value)) return undefined;
	const input = numberField(value, "input");
	const output = numberField(value, "output");
	if (input === undefined || output === undefined) return undefined;
	const cache = isObject(value.cache) ? value.cache : {};
	const cacheRead = numberField(cache, "read") ?? 0;
	const cacheWrite = numberField(cache, "write") ?? 0;
	const reasoning = numberField(value, "reasoning") ?? 0;
	return {
		input,
		output: output + reasoning,
		cacheRead,
		cacheWrite,
		totalTokens: numberField(value, "total") ?? input + output + reasoning + cacheRead + cacheWrite,
	};
}

/** The last step's stop reason from the message's finish and error. */
function settleLast(records: RecordInput[], info: Record<string, unknown>): void {
	const last = [...records].reverse().find((record) => record.recordType === "message" && record.role === "assistant");
	if (last?.recordType !== "message") return;
	const error = isObject(info.error) ? info.error : undefined;
	const finish = stringField(info, "finish");
	let reason: StopReason | undefined;
	if (error) reason = error.name === "MessageAbortedError" ? "aborted" : "error";
	else if (finish === "length") reason = "length";
	if (reason) last.stopReason = reason;
	if (error) {
		const data = isObject(error.data) ? error.data : {};
		last.errorMessage = stringField(data, "message") ?? stringField(error, "name") ?? "error";
	}
}
