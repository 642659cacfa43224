import type { ContentBlock } from "./content.js";
import { jsonLength } from "./json-length.js";

/** Tokens counted for one image: it counts as 4800 characters in the chars/4 estimate (the spec gives no image rule). */
export const IMAGE_TOKEN_ESTIMATE = 1200;

const CHARS_PER_TOKEN = 4;

/** The characters a block contributes to the chars/4 estimate. */
export function blockChars(block: ContentBlock): number {
	switch (block.type) {
		case "text":
			return block.text.length;
		case "thinking":
			return block.thinking.length;
		case "toolCall":
			return block.name.length + argumentsLength(block.arguments);
		case "image":
			return IMAGE_TOKEN_ESTIMATE * CHARS_PER_TOKEN;
	}
}

// Arguments at least this long (as JSON) are measured once; shorter ones cost less to measure than to look up.
const REMEMBERED_FROM = 256;
const argumentLengths = new WeakMap<object, number>();

/**
 * The JSON length of a tool call's arguments, walked once per arguments object: a session's
 * records are estimated again and again (a compaction plan, then the context's estimate, then
 * the next plan), and the long arguments (file contents, patches) are what costs. Records are
 * never changed once written, so a length stays right for the object it was measured on.
 */
function argumentsLength(args: Record<string, unknown> | undefined): number {
	if (args === undefined || args === null) return 2; // "{}"
	if (typeof args !== "object") return jsonLength(args); // not what the schema allows, but measured all the same
	let length = argumentLengths.get(args);
	if (length === undefined) {
		length = jsonLength(args);
		if (length >= REMEMBERED_FROM) argumentLengths.set(args, length);
	}
	return length;
}

/** Estimated tokens of a content array: ceil(chars / 4) (spec §7.4). */
export function estimateContentTokens(content: readonly ContentBlock[]): number {
	let chars = 0;
	for (const block of content) chars += blockChars(block);
	return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Estimated tokens of a plain string: ceil(chars / 4). */
export function estimateTextTokens(text: string): number {
	return Math.ceil(text.length / CHARS_PER_TOKEN);
}
