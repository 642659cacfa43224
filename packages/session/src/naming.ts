import { type ContentBlock, contentText, headOf, truncateText } from "@agent/session-format/reading";
import type { ResolvedModel } from "./model-names.js";
import { loadPiAi } from "./pi-ai.js";

const MAX_NAME_LENGTH = 60;

/** A session name from its first user message: the first line, trimmed to 60 characters on a word. */
export function nameFromFirstMessage(content: readonly ContentBlock[]): string | undefined {
	const text = contentText(content).trim();
	if (text.length === 0) return undefined;
	const firstLine = (text.split("\n")[0] ?? "").replace(/\s+/g, " ").trim();
	if (firstLine.length <= MAX_NAME_LENGTH) return firstLine;
	// On a whole character (an emoji at the cut stays whole or goes), then back to a word if one is near.
	const cut = headOf(firstLine, MAX_NAME_LENGTH);
	const lastSpace = cut.lastIndexOf(" ");
	return `${(lastSpace > MAX_NAME_LENGTH / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

/** The prompt asking a model for a short title. */
export const TITLE_PROMPT =
	"Write a title of at most six words for a conversation that starts with the message below. " +
	"Answer with the title only, no quotes, no punctuation at the end.\n\n";

/** Cleans a model-written title: one line, no quotes, at most 60 characters. */
export function cleanTitle(raw: string): string | undefined {
	const line = (raw.trim().split("\n")[0] ?? "").replace(/^["'#*\s]+|["'.*\s]+$/g, "").trim();
	if (line.length === 0) return undefined;
	return truncateText(line, MAX_NAME_LENGTH);
}

/**
 * A title written by the model (config `llm_titles: true`); falls back to the first message's
 * first line when the model fails or answers nothing usable. Never fails a turn.
 */
export async function titleFromModel(
	model: ResolvedModel,
	content: readonly ContentBlock[],
	signal?: AbortSignal,
): Promise<string | undefined> {
	const fallback = nameFromFirstMessage(content);
	const text = contentText(content).trim();
	if (text.length === 0) return fallback;
	try {
		const { complete } = await loadPiAi();
		const reply = await complete(
			model.model,
			{ messages: [{ role: "user", content: `${TITLE_PROMPT}${headOf(text, 2000)}`, timestamp: Date.now() }] },
			{ maxTokens: 32, ...(model.apiKey ? { apiKey: model.apiKey } : {}), ...(signal ? { signal } : {}) },
		);
		if (reply.stopReason === "error" || reply.stopReason === "aborted") return fallback;
		const answer = reply.content.map((block) => (block.type === "text" ? block.text : "")).join("");
		return cleanTitle(answer) ?? fallback;
	} catch {
		return fallback;
	}
}
