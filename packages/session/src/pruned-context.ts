import { pruneToolOutputs, truncateOversizedBlocks } from "@agent/compaction";
import type { OpenedSession, SessionContext } from "@agent/session-format/reading";

/** What pruning took out of a context: the tool results whose output was replaced, and the tokens saved. */
export interface PrunedOutputs {
	/** The seqs of the toolResult records whose output the model no longer sees. */
	seqs: number[];
	tokens: number;
}

/** A context as the model gets it: the session's, with old tool outputs pruned when configured. */
export interface ModelContext extends SessionContext {
	/** Present when config pruned something (compaction.prune_tool_outputs). */
	pruned?: PrunedOutputs;
	/** Present when blocks too big for the model's window were cut to head and tail (the log keeps them whole). */
	truncated?: PrunedOutputs;
}

/**
 * Applies compaction.prune_tool_outputs to an opened session's context (opencode's pruning),
 * then cuts any text or thinking block over `maxBlockTokens` to its head and tail with a marker
 * (see oversizedBlockTokens): nothing is written, the log keeps every output and every whole
 * text; only what the model is sent changes.
 */
export function prunedContext(
	opened: OpenedSession,
	settings: { protectTokens: number; minimumTokens: number } | undefined,
	maxBlockTokens = Number.POSITIVE_INFINITY,
): ModelContext {
	const pruned = prunedOutputs(opened.context, settings);
	if (!Number.isFinite(maxBlockTokens)) return pruned;
	const cut = truncateOversizedBlocks(pruned.messages, maxBlockTokens);
	if (cut.seqs.length === 0) return pruned;
	return {
		...pruned,
		messages: cut.messages,
		estimatedTokens: Math.max(0, pruned.estimatedTokens - cut.tokens),
		truncated: { seqs: cut.seqs.filter((seq): seq is number => seq !== undefined), tokens: cut.tokens },
	};
}

function prunedOutputs(
	context: SessionContext,
	settings: { protectTokens: number; minimumTokens: number } | undefined,
): ModelContext {
	if (!settings) return context;
	const result = pruneToolOutputs(context.messages, settings);
	if (result.prunedCount === 0) return context;
	const seqs = result.messages.flatMap((message, i) =>
		message !== context.messages[i] && message.seq !== undefined ? [message.seq] : [],
	);
	return {
		...context,
		messages: result.messages,
		estimatedTokens: Math.max(0, context.estimatedTokens - result.prunedTokens),
		pruned: { seqs, tokens: result.prunedTokens },
	};
}
