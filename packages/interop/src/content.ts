import {
	type ContentBlock,
	type ImageBlock,
	type RecordInput,
	type StopReason,
	type TextBlock,
	truncateText,
	type Usage,
} from "@agent/session-format";
import { isObject } from "./json-lines.js";

export function text(value: string): TextBlock {
	return { type: "text", text: value };
}

/** A data: URL of an image as an image block; undefined for anything else (http URLs, other media). */
export function imageFromDataUrl(url: string): ImageBlock | undefined {
	const match = /^data:(image\/[A-Za-z0-9.+-]+);base64,(.*)$/s.exec(url);
	if (!match) return undefined;
	return { type: "image", mimeType: match[1] as string, data: match[2] as string };
}

/**
 * A pi-ai content block checked field by field; undefined when it is not one of the types
 * in `allowed` or lacks a required field.
 */
export function piBlock(value: unknown, allowed: ReadonlySet<ContentBlock["type"]>): ContentBlock | undefined {
	if (!isObject(value) || typeof value.type !== "string" || !allowed.has(value.type as ContentBlock["type"])) {
		return undefined;
	}
	switch (value.type) {
		case "text": {
			if (typeof value.text !== "string") return undefined;
			const block: TextBlock = { type: "text", text: value.text };
			if (typeof value.textSignature === "string") block.textSignature = value.textSignature;
			return block;
		}
		case "thinking": {
			if (typeof value.thinking !== "string") return undefined;
			const block: ContentBlock = { type: "thinking", thinking: value.thinking };
			if (typeof value.thinkingSignature === "string") block.thinkingSignature = value.thinkingSignature;
			if (typeof value.redacted === "boolean") block.redacted = value.redacted;
			return block;
		}
		case "toolCall": {
			if (typeof value.id !== "string" || value.id === "" || typeof value.name !== "string" || value.name === "") {
				return undefined;
			}
			if (!isObject(value.arguments)) return undefined;
			const block: ContentBlock = { type: "toolCall", id: value.id, name: value.name, arguments: value.arguments };
			if (typeof value.thoughtSignature === "string") block.thoughtSignature = value.thoughtSignature;
			return block;
		}
		case "image": {
			if (typeof value.data !== "string" || typeof value.mimeType !== "string" || value.mimeType === "") {
				return undefined;
			}
			return { type: "image", data: value.data, mimeType: value.mimeType };
		}
		default:
			return undefined;
	}
}

export const USER_BLOCKS: ReadonlySet<ContentBlock["type"]> = new Set(["text", "image"]);
export const ASSISTANT_BLOCKS: ReadonlySet<ContentBlock["type"]> = new Set(["text", "thinking", "toolCall"]);

/**
 * pi-ai content that may be a bare string or an array of blocks, as blocks. Undefined when any
 * block is not one of `allowed`: the caller keeps the whole message as a custom record then.
 */
export function piContent(value: unknown, allowed: ReadonlySet<ContentBlock["type"]>): ContentBlock[] | undefined {
	if (typeof value === "string") return [text(value)];
	if (!Array.isArray(value)) return undefined;
	const out: ContentBlock[] = [];
	for (const item of value) {
		const block = piBlock(item, allowed);
		if (!block) return undefined;
		out.push(block);
	}
	return out;
}

/** Parses a tool call's JSON-string arguments; an object, or the raw string under `input` when it is not one. */
export function parseToolArguments(raw: unknown): { args: Record<string, unknown>; parsed: boolean } {
	if (isObject(raw)) return { args: raw, parsed: true };
	if (typeof raw === "string") {
		try {
			const value: unknown = JSON.parse(raw);
			if (isObject(value)) return { args: value, parsed: true };
		} catch {
			// kept raw below
		}
		return { args: { input: raw }, parsed: false };
	}
	return { args: raw === undefined ? {} : { input: raw }, parsed: raw === undefined };
}

/** An ISO time from epoch milliseconds or an ISO string; undefined when neither. */
export function isoTime(value: unknown): string | undefined {
	if (typeof value === "string" && value.length > 0 && !Number.isNaN(Date.parse(value))) return value;
	if (typeof value === "number" && Number.isFinite(value)) {
		const date = new Date(value);
		if (!Number.isNaN(date.getTime())) return date.toISOString();
	}
	return undefined;
}

/** An assistant message record; model and usage only when known. */
export function assistantRecord(fields: {
	content: ContentBlock[];
	api: string;
	provider: string;
	stopReason: StopReason;
	model?: string | undefined;
	usage?: Usage | undefined;
}): RecordInput {
	const { content, api, provider, stopReason, model, usage } = fields;
	const record: RecordInput = { recordType: "message", role: "assistant", content, api, provider, stopReason };
	if (model) record.model = model;
	if (usage) record.usage = usage;
	return record;
}

/** The blocks a user-side message (a custom message) can carry. */
export type UserBlock = TextBlock | ImageBlock;

/** Text and image blocks only (what a custom message can carry). */
export function userBlocks(blocks: readonly ContentBlock[]): UserBlock[] {
	return blocks.filter((block): block is UserBlock => block.type === "text" || block.type === "image");
}

const NAME_LENGTH = 80;

/** A prompt as a session's name: its white space collapsed, cut to 80 characters on whole code points. */
export function promptName(prompt: string): string | undefined {
	const line = prompt.replace(/\s+/g, " ").trim();
	if (!line) return undefined;
	return truncateText(line, NAME_LENGTH);
}
