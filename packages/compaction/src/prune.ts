import { type ContextMessage, estimateTextTokens, textBlock } from "@agent/session-format/reading";
import { estimateMessageTokens } from "./tokens.js";

export interface PruneOptions {
	/** The newest tool output, up to this many tokens, is never pruned. Default 40 000. */
	protectTokens?: number;
	/** Nothing is pruned unless at least this many tokens would go. Default 20 000. */
	minimumTokens?: number;
	/** Tool results in the last this-many user turns are never pruned. Default 2. */
	protectTurns?: number;
	/** Tools whose output is never pruned. Default none. */
	protectedTools?: readonly string[];
	/** The text that replaces a pruned output. */
	placeholder?: (message: ContextMessage, tokens: number) => string;
}

export interface PruneResult {
	/** The context to send: the input with old tool outputs replaced. The input is not changed. */
	messages: ContextMessage[];
	/** How many tool results were replaced. */
	prunedCount: number;
	/** Estimated tokens saved. */
	prunedTokens: number;
}

export const DEFAULT_PRUNE_PROTECT_TOKENS = 40_000;
export const DEFAULT_PRUNE_MINIMUM_TOKENS = 20_000;

/** The default placeholder: what was there, and what to do to see it again. */
export function prunedOutputPlaceholder(message: ContextMessage, tokens: number): string {
	const tool = message.toolName ? `the ${message.toolName} tool` : "a tool";
	return `[Old output of ${tool} pruned from the context (about ${tokens} tokens); run the tool again if it is still needed]`;
}

/**
 * A view of the context with the output of old tool results replaced by a short placeholder
 * (opencode's pruning): walking back from the newest message, tool output within the last
 * `protectTurns` user turns and the newest `protectTokens` tokens of it stay; older output is
 * replaced, but only when that saves at least `minimumTokens`. Tool calls and results stay
 * paired; nothing is written anywhere.
 */
export function pruneToolOutputs(messages: readonly ContextMessage[], options: PruneOptions = {}): PruneResult {
	const protectTokens = options.protectTokens ?? DEFAULT_PRUNE_PROTECT_TOKENS;
	const minimumTokens = options.minimumTokens ?? DEFAULT_PRUNE_MINIMUM_TOKENS;
	const protectTurns = options.protectTurns ?? 2;
	const protectedTools = new Set(options.protectedTools ?? []);
	const placeholder = options.placeholder ?? prunedOutputPlaceholder;

	const replacements = new Map<number, string>();
	let turns = 0;
	let seen = 0;
	let saved = 0;
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i] as ContextMessage;
		if (message.origin === "compaction_summary") break;
		if (message.role === "user" && message.origin === "message") turns++;
		if (message.role !== "toolResult" || turns < protectTurns) continue;
		if (message.toolName !== undefined && protectedTools.has(message.toolName)) continue;
		const tokens = estimateMessageTokens(message);
		seen += tokens;
		if (seen <= protectTokens) continue;
		const text = placeholder(message, tokens);
		const gain = tokens - estimateTextTokens(text);
		if (gain <= 0) continue;
		replacements.set(i, text);
		saved += gain;
	}
	if (replacements.size === 0 || saved < minimumTokens) {
		return { messages: [...messages], prunedCount: 0, prunedTokens: 0 };
	}
	const pruned = messages.map((message, i) => {
		const text = replacements.get(i);
		return text === undefined ? message : { ...message, content: [textBlock(text)] };
	});
	return { messages: pruned, prunedCount: replacements.size, prunedTokens: saved };
}
