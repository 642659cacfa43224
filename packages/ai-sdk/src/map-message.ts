import { type ContentBlock, FIELD_LIMITS, type ImageBlock, type RecordInput } from "@agent/session-format/reading";
import type { UIMessage } from "ai";

/** A message record as this package writes it. */
export type MessageInput = Extract<RecordInput, { recordType: "message" }>;

/**
 * A part as this mapping reads it: any version of the AI SDK, including part types it does not
 * know (they are kept in the verbatim UIMessage and mapped to nothing).
 */
type Part = { type: string } & Record<string, unknown>;

/** What the caller knows about a reply beyond its parts. */
export interface ReplyNotes {
	/** The model that wrote it. */
	model?: { provider: string; modelId: string };
	/** How its stream ended, when not normally. */
	stop?: "aborted" | "error";
	errorMessage?: string;
}

export interface MappedMessage {
	records: MessageInput[];
	/**
	 * For each record, the index of the part its step starts at: a reply whose first records
	 * were compacted away is shown from there on.
	 */
	partStarts: number[];
}

/**
 * Maps a UIMessage to our message records: a user message to one user record (text, images,
 * a note for other files); an assistant message to one assistant record per step (reasoning as
 * thinking, text, tool calls) followed by a toolResult record for each tool part of the step that
 * has an outcome. System messages, sources, data parts and part types unknown here map to nothing
 * (they stay in the verbatim UIMessage).
 */
export function mapUIMessage(message: UIMessage, notes: ReplyNotes = {}): MappedMessage {
	const parts = message.parts as unknown as Part[];
	if (message.role === "user") {
		const content = userContent(parts);
		return content.length === 0
			? { records: [], partStarts: [] }
			: { records: [{ recordType: "message", role: "user", content }], partStarts: [0] };
	}
	if (message.role !== "assistant") return { records: [], partStarts: [] };
	return assistantRecords(parts, notes);
}

function userContent(parts: readonly Part[]): ContentBlock[] {
	const content: ContentBlock[] = [];
	for (const part of parts) {
		if (part.type === "text" && typeof part.text === "string" && part.text.length > 0) {
			content.push({ type: "text", text: part.text });
		} else if (part.type === "file") {
			content.push(fileBlock(part));
		}
	}
	return content;
}

interface Step {
	start: number;
	content: ContentBlock[];
	results: MessageInput[];
}

function assistantRecords(parts: readonly Part[], notes: ReplyNotes): MappedMessage {
	const mapped: MappedMessage = { records: [], partStarts: [] };
	let step: Step = { start: 0, content: [], results: [] };
	const flush = () => {
		if (step.content.length === 0) return;
		mapped.records.push(assistantRecord(step.content, notes), ...step.results);
		for (let i = 0; i <= step.results.length; i++) mapped.partStarts.push(step.start);
	};
	parts.forEach((part, index) => {
		if (part.type === "step-start") {
			flush();
			step = { start: index, content: [], results: [] };
		} else {
			addPart(step, part);
		}
	});
	flush();
	if (notes.stop !== undefined) {
		let last = mapped.records.findLast((record) => record.role === "assistant");
		if (!last) {
			// A reply cut off before it said anything: the record still says so.
			last = assistantRecord([], notes);
			mapped.records.push(last);
			mapped.partStarts.push(0);
		}
		last.stopReason = notes.stop;
		if (notes.errorMessage !== undefined) last.errorMessage = notes.errorMessage;
	}
	return mapped;
}

function assistantRecord(content: ContentBlock[], notes: ReplyNotes): MessageInput {
	const record: MessageInput = { recordType: "message", role: "assistant", content };
	if (notes.model) {
		record.provider = notes.model.provider;
		record.model = notes.model.modelId;
	}
	return record;
}

function addPart(step: Step, part: Part): void {
	if ((part.type === "text" || part.type === "reasoning") && typeof part.text === "string") {
		if (part.text.length === 0) return;
		step.content.push(
			part.type === "text" ? { type: "text", text: part.text } : { type: "thinking", thinking: part.text },
		);
		return;
	}
	if (part.type === "file") {
		step.content.push(fileBlock(part));
		return;
	}
	const name = toolName(part);
	if (name === undefined || typeof part.toolCallId !== "string" || part.toolCallId.length === 0) return;
	step.content.push({ type: "toolCall", id: part.toolCallId, name, arguments: toolArguments(part.input) });
	const result = toolResult(part, name, part.toolCallId);
	if (result) step.results.push(result);
}

function toolName(part: Part): string | undefined {
	if (part.type === "dynamic-tool")
		return typeof part.toolName === "string" && part.toolName ? part.toolName : undefined;
	return part.type.startsWith("tool-") && part.type.length > 5 ? part.type.slice(5) : undefined;
}

/** A tool call's arguments are a JSON object on our records; any other input is kept under `input`. */
function toolArguments(input: unknown): Record<string, unknown> {
	if (input === undefined) return {};
	const json: unknown = JSON.parse(JSON.stringify(input) ?? "null");
	return typeof json === "object" && json !== null && !Array.isArray(json)
		? (json as Record<string, unknown>)
		: { input: json };
}

function toolResult(part: Part, toolName: string, toolCallId: string): MessageInput | undefined {
	let text: string;
	let isError = false;
	switch (part.state) {
		case "output-available":
			text = typeof part.output === "string" ? part.output : (JSON.stringify(part.output) ?? "");
			break;
		case "output-error":
			text = typeof part.errorText === "string" ? part.errorText : "the tool failed";
			isError = true;
			break;
		case "output-denied": {
			const reason = (part.approval as { reason?: unknown } | undefined)?.reason;
			text = `the tool call was denied${typeof reason === "string" && reason ? `: ${reason}` : ""}`;
			isError = true;
			break;
		}
		default:
			return undefined;
	}
	return {
		recordType: "message",
		role: "toolResult",
		toolCallId,
		toolName,
		isError,
		content: text.length > 0 ? [{ type: "text", text }] : [],
	};
}

const DATA_URL = /^data:([^;,]+)((?:;[^;,]*)*);base64,/i;

/** An inline image becomes an image block; any other file a note naming it (never its bytes). */
function fileBlock(part: Part): ContentBlock {
	const mediaType = typeof part.mediaType === "string" ? part.mediaType : "application/octet-stream";
	const url = typeof part.url === "string" ? part.url : "";
	const match = DATA_URL.exec(url);
	if (match && mediaType.startsWith("image/") && mediaType.length <= FIELD_LIMITS.mimeType) {
		return { type: "image", mimeType: mediaType, data: url.slice(match[0].length) } satisfies ImageBlock;
	}
	const name = typeof part.filename === "string" && part.filename ? `${part.filename} ` : "";
	const where = match || url.length === 0 ? "" : ` ${url}`;
	return { type: "text", text: `[file: ${name}(${mediaType})${where}]` };
}
