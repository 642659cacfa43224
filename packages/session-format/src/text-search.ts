import { contentText } from "./content-text.js";
import { AgentSessionError } from "./errors.js";
import type { MessageRole, StoredRecord } from "./records.js";
import { codePointBoundary } from "./text-cut.js";

/** One message whose text holds the searched text. */
export interface SearchHit {
	sessionId: string;
	/** The session's name, when it has one. */
	sessionName?: string;
	seq: number;
	role: MessageRole;
	timestamp: string;
	/** The text around the first match, on one line, cut with "…" where it goes on. */
	snippet: string;
}

/** The longest query `search` takes: a search is for words, not documents. */
export const MAX_SEARCH_QUERY_CHARS = 1000;
/** Characters of context a snippet shows on each side of the match. */
const SNIPPET_CONTEXT = 60;

/**
 * What every store's `search` shares: which records match a query and their snippet. Matching is
 * case-insensitive, on the text blocks of message records, with runs of whitespace (line breaks
 * included) counted as one space in both the query and the text.
 */
export interface TextMatcher {
	/** The query as matched: trimmed, whitespace collapsed, case folded (foldCase). */
	readonly needle: string;
	/**
	 * The longest run of the query's printable ASCII characters other than space, quote and
	 * backslash: it appears as is in a matching record's JSON line (JSON escapes none of them), in
	 * ASCII letters of either case, since foldCase never folds another character into ASCII.
	 * Stores test raw lines or rows with it (case-insensitive) before decoding any. Empty when
	 * the query has none: then every message is a candidate.
	 */
	readonly rawWord: string;
	/**
	 * The query's words when it is all printable ASCII (what `rawPattern` is made of), for a store
	 * that builds the same pattern in its own dialect (PostgreSQL's regular expressions).
	 */
	readonly rawWords: readonly string[] | undefined;
	/**
	 * A case-insensitive pattern that every matching record's JSON line contains (as JSON.stringify
	 * writes it): the query's words with whitespace or its JSON escapes between them. A line
	 * without it cannot match; one with it may (the words can be in a tool call). Undefined when
	 * the query has characters a writer may escape differently (outside printable ASCII).
	 */
	readonly rawPattern: RegExp | undefined;
	/** The hit for a record, or undefined when it does not match. */
	match(sessionId: string, record: StoredRecord, sessionName?: string): SearchHit | undefined;
}

function invalidArgument(message: string): AgentSessionError {
	return new AgentSessionError("INVALID_ARGUMENT", `@agent/session-format: ${message}`);
}

export function textMatcher(query: string): TextMatcher {
	if (typeof query !== "string") throw invalidArgument(`search needs a text, got ${typeof query}`);
	const needle = foldCase(collapse(query));
	if (needle.length === 0) throw invalidArgument("search needs some text to look for, got an empty query");
	if (needle.length > MAX_SEARCH_QUERY_CHARS) {
		throw invalidArgument(`search takes at most ${MAX_SEARCH_QUERY_CHARS} characters, got ${needle.length}`);
	}
	const rawWord = needle
		.split(/[^\x21\x23-\x5b\x5d-\x7e]+/)
		.reduce((longest, word) => (word.length > longest.length ? word : longest), "");
	const rawWords = /^[\x20-\x7e]+$/.test(needle) ? needle.split(" ") : undefined;
	const rawPattern = rawWords
		? new RegExp(rawWords.map((word) => escapeRegExp(JSON.stringify(word).slice(1, -1))).join(RAW_WHITESPACE), "i")
		: undefined;
	return {
		needle,
		rawWord,
		rawWords,
		rawPattern,
		match(sessionId, record, sessionName) {
			if (record.recordType !== "message") return undefined;
			const text = collapse(contentText(record.content));
			const at = foldCase(text).indexOf(needle);
			if (at < 0) return undefined;
			return {
				sessionId,
				...(sessionName !== undefined ? { sessionName } : {}),
				seq: record.seq,
				role: record.role,
				timestamp: record.timestamp,
				snippet: snippetOf(text, at, needle.length),
			};
		},
	};
}

/**
 * What whitespace between two words of the query may look like in a JSON line: whitespace, its
 * JSON escapes (\n, \t, \u2028...), or a byte of a multi-byte character (U+00A0 and other
 * Unicode spaces, when a store scans the bytes as Latin-1). Wider than whitespace on purpose:
 * the pattern only picks the lines to decode, and the matcher decides.
 */
const RAW_WHITESPACE = "(?:\\s|\\\\[nrtfb]|\\\\u[0-9a-fA-F]{4}|[\\u0080-\\u00ff])+";

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Text for case-insensitive matching: lowercased, except U+0130 (İ, whose lowercase is two
 * characters) and U+212A (the Kelvin sign, whose lowercase is ASCII "k"), which stay as they are.
 * So the folded text has the length of the text (a match's index is its index in the text), and
 * no other character folds into ASCII (an ASCII word of the query is found by an ASCII
 * case-insensitive scan of the raw bytes, in every store).
 */
export function foldCase(text: string): string {
	if (!/[\u0130\u212a]/.test(text)) return text.toLowerCase();
	return text
		.split(/([\u0130\u212a])/)
		.map((part, i) => (i % 2 === 1 ? part : part.toLowerCase()))
		.join("");
}

/**
 * Whether a listing's `search` finds a session: its text in the session's name or id, case folded
 * (foldCase), the same in every store.
 */
export function listSearchMatches(search: string, id: string, name: string | undefined): boolean {
	const needle = foldCase(search);
	return foldCase(id).includes(needle) || (name !== undefined && foldCase(name).includes(needle));
}

/**
 * The longest run of printable ASCII in `text` once case folded: what a store may look for with an
 * ASCII case-insensitive scan (LIKE ... ILIKE) before deciding with listSearchMatches, since no
 * other character folds into ASCII. Empty when there is none.
 */
export function asciiRunOf(text: string): string {
	return foldCase(text)
		.split(/[^\x20-\x7e]+/)
		.reduce((longest, run) => (run.length > longest.length ? run : longest), "");
}

/** Runs of whitespace as one space, trimmed. */
function collapse(text: string): string {
	return text.replace(/\s+/g, " ").trim();
}

/**
 * The text around a match: about SNIPPET_CONTEXT characters on each side, cut where a word starts
 * or ends, with "…" where the text goes on. Only a word longer than the context itself (next to the
 * match) is cut, on a whole code point: some of it is shown rather than none.
 */
export function snippetOf(text: string, at: number, length: number): string {
	let start = Math.max(0, at - SNIPPET_CONTEXT);
	let end = Math.min(text.length, at + length + SNIPPET_CONTEXT);
	if (start > 0 && text[start - 1] !== " ") {
		const space = text.indexOf(" ", start);
		if (space >= 0 && space < at - 1) start = space + 1;
	}
	if (end < text.length && text[end] !== " ") {
		const space = text.lastIndexOf(" ", end);
		if (space > at + length) end = space;
	}
	// Cut on whole characters: a start inside a surrogate pair moves past it, an end before it.
	if (codePointBoundary(text, start) !== start) start++;
	end = codePointBoundary(text, end);
	return `${start > 0 ? "…" : ""}${text.slice(start, end).trim()}${end < text.length ? "…" : ""}`;
}
