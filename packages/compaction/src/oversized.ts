import {
	blockChars,
	type ContentBlock,
	estimateTextTokens,
	headOf,
	type StoredRecord,
	tailOf,
} from "@agent/session-format/reading";
import { estimateRecordTokens } from "./tokens.js";

// chars/4, the estimate every token count in the project uses (session-format's estimateTextTokens).
const CHARS_PER_TOKEN = 4;
// However small the window, a block keeps at least this much of its text.
const MIN_BLOCK_TOKENS = 256;

/**
 * The most tokens one text, thinking or tool-result block may take of a model's context: a
 * quarter of what the window leaves after the reserve, so that no single block can fill the
 * window (or trigger a compaction that cannot reduce it). Infinity when the window is unknown.
 */
export function oversizedBlockTokens(contextWindow: number | undefined, reserveTokens: number): number {
	if (contextWindow === undefined || !Number.isFinite(contextWindow) || contextWindow <= 0) {
		return Number.POSITIVE_INFINITY;
	}
	return Math.max(MIN_BLOCK_TOKENS, Math.floor((contextWindow - reserveTokens) / 4));
}

/**
 * Keeps the head and the tail of a text longer than `maxTokens` and puts a marker between them
 * saying how many characters were left out and where the whole text is (the log keeps it).
 */
export function truncateOversizedText(text: string, maxTokens: number, seq?: number): string {
	if (!Number.isFinite(maxTokens) || estimateTextTokens(text) <= maxTokens) return text;
	const keep = Math.max(0, maxTokens * CHARS_PER_TOKEN - 200);
	// Both cuts on whole characters: half an emoji would be a lone surrogate in what the model is sent.
	const head = headOf(text, Math.ceil(keep / 2));
	const tail = tailOf(text, keep - Math.ceil(keep / 2));
	const omitted = text.length - head.length - tail.length;
	const where = seq === undefined ? "the session log" : `the session log at seq ${seq}`;
	const marker = `\n[… ${omitted.toLocaleString("en-US")} characters omitted; the full text is in ${where} …]\n`;
	return `${head}${marker}${tail}`;
}

/** A message as far as truncation goes: its blocks and the record it came from. */
export interface TruncatableMessage {
	readonly content: readonly ContentBlock[];
	readonly seq?: number | undefined;
}

export interface OversizedTruncation<M> {
	/** The messages, the untouched ones the same objects as before. */
	messages: M[];
	/** The seqs of the messages with a block cut (undefined for ephemeral messages). */
	seqs: (number | undefined)[];
	/** Estimated tokens taken out. */
	tokens: number;
}

/**
 * Cuts every text, thinking and tool-result text block whose estimate is over `maxBlockTokens`
 * to its head and tail with a marker; nothing is written, the log keeps the whole text. Pure.
 */
export function truncateOversizedBlocks<M extends TruncatableMessage>(
	messages: readonly M[],
	maxBlockTokens: number,
): OversizedTruncation<M> {
	const result: OversizedTruncation<M> = { messages: [], seqs: [], tokens: 0 };
	for (const message of messages) {
		const truncated = truncateMessage(message, maxBlockTokens);
		if (truncated !== message) {
			result.seqs.push(message.seq);
			result.tokens += blocksTokens(message.content) - blocksTokens(truncated.content);
		}
		result.messages.push(truncated);
	}
	return result;
}

/** One message with its oversized blocks cut; the same object when none is. */
export function truncateMessage<M extends TruncatableMessage>(message: M, maxBlockTokens: number): M {
	if (!Number.isFinite(maxBlockTokens)) return message;
	let changed = false;
	const content = message.content.map((block) => {
		const cut = truncateBlock(block, maxBlockTokens, message.seq);
		if (cut !== block) changed = true;
		return cut;
	});
	return changed ? { ...message, content } : message;
}

function truncateBlock(block: ContentBlock, maxTokens: number, seq: number | undefined): ContentBlock {
	if (block.type === "text") {
		const text = truncateOversizedText(block.text, maxTokens, seq);
		return text === block.text ? block : { ...block, text };
	}
	if (block.type === "thinking") {
		const thinking = truncateOversizedText(block.thinking, maxTokens, seq);
		return thinking === block.thinking ? block : { ...block, thinking };
	}
	return block;
}

function blocksTokens(content: readonly ContentBlock[]): number {
	let tokens = 0;
	for (const block of content) {
		if (block.type === "text") tokens += estimateTextTokens(block.text);
		else if (block.type === "thinking") tokens += estimateTextTokens(block.thinking);
	}
	return tokens;
}

// What the marker adds to a cut block, in tokens (generously).
const MARKER_TOKENS = 40;

/**
 * A record's token estimate as the model and the summarizer get it: a text or thinking block
 * over `maxBlockTokens` counts as what remains after the cut. Equals estimateRecordTokens when
 * nothing is cut.
 */
export function cappedRecordTokens(record: StoredRecord, maxBlockTokens: number): number {
	switch (record.recordType) {
		case "message":
		case "custom_message":
			return cappedContentTokens(record.content, BlockLimit.of(maxBlockTokens));
		default:
			return estimateRecordTokens(record);
	}
}

// Longer than any string V8 can hold (2^29 - 24 characters), and still a small integer: the
// limit of "cut nothing" keeps the same number representation as every finite one.
const NO_CHAR_LIMIT = 2 ** 29;

/** A block limit as {@link cappedContentTokens} applies it, worked out once per plan. */
export class BlockLimit {
	private constructor(
		/** The longest text or thinking block counted whole, in characters. */
		readonly maxChars: number,
		/** What a cut block counts: the limit, plus the marker. */
		readonly cutTokens: number,
	) {}

	static of(maxBlockTokens: number): BlockLimit {
		// ceil(length / 4) > max exactly when length > 4 * floor(max); a limit that is not finite cuts nothing.
		if (!Number.isFinite(maxBlockTokens)) return new BlockLimit(NO_CHAR_LIMIT, 0);
		const maxChars = Math.min(NO_CHAR_LIMIT, Math.max(-1, Math.floor(maxBlockTokens) * CHARS_PER_TOKEN));
		return new BlockLimit(maxChars, maxBlockTokens + MARKER_TOKENS);
	}
}

/**
 * {@link cappedRecordTokens} of a content array, in one pass over its blocks: the planner runs it
 * on every record of a session, so it measures each block once (a text's length is free, a tool
 * call's arguments are walked) and allocates nothing.
 */
export function cappedContentTokens(content: readonly ContentBlock[], limit: BlockLimit): number {
	const maxChars = limit.maxChars;
	let chars = 0;
	let cut = 0;
	for (let i = 0; i < content.length; i++) {
		const block = content[i] as ContentBlock;
		let length: number;
		if (block.type === "text") length = block.text.length;
		else if (block.type === "thinking") length = block.thinking.length;
		else {
			chars += blockChars(block);
			continue;
		}
		if (length > maxChars) cut++;
		else chars += length;
	}
	const tokens = Math.ceil(chars / CHARS_PER_TOKEN);
	return cut === 0 ? tokens : tokens + cut * limit.cutTokens;
}
