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
			return block.name.length + jsonLength(block.arguments ?? {});
		case "image":
			return IMAGE_TOKEN_ESTIMATE * CHARS_PER_TOKEN;
	}
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
