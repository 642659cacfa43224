import { contextMessageOf } from "@agent/session-format/reading";
import { invalidArgument } from "./errors.js";
import { truncateMessage } from "./oversized.js";
import type { PathSource } from "./path-source.js";
import { recordsBetween } from "./path-source.js";
import { type CompactionPlan, planSource, type SummaryPart } from "./prepare.js";
import { type SerializeOptions, serializeMessage } from "./serialize.js";
import { renderSummaryPrompt } from "./summary-prompts.js";

/**
 * A part's messages in the §7.5.5 flat format, one string per message (messages with nothing
 * to show are left out; blocks over serialize.maxBlockTokens cut to head and tail), serialized as they are read from the source: only what a chunk needs
 * is ever in memory.
 */
export async function* partPieces(
	source: PathSource,
	part: Pick<SummaryPart, "fromSeq" | "toSeq">,
	serialize: SerializeOptions = {},
): AsyncGenerator<string> {
	for await (const record of recordsBetween(source, part.fromSeq, part.toSeq)) {
		const message = contextMessageOf(record);
		if (!message) continue;
		const cut = serialize.maxBlockTokens === undefined ? message : truncateMessage(message, serialize.maxBlockTokens);
		const text = serializeMessage(cut, serialize);
		if (text.length > 0) yield text;
	}
}

/** The source a plan's material is read from: the one given, else the path or source it was prepared from. */
export function sourceFor(plan: CompactionPlan, source?: PathSource): PathSource {
	const found = source ?? planSource(plan);
	if (!found) {
		throw invalidArgument(
			"this plan has no records to summarize from (it was copied or deserialized); pass the session's path source as options.source, or prepare the plan again",
		);
	}
	return found;
}

/**
 * The exact user message of a part when its material fits the summarizer's window in one call:
 * the whole serialized conversation, rendered on request (`compact --dry-run --prompts`). It
 * holds the part's whole material in one string; `compact` never builds it.
 */
export async function renderPartPrompt(
	plan: CompactionPlan,
	part: SummaryPart,
	options: { customInstructions?: string; source?: PathSource } = {},
): Promise<string> {
	const pieces: string[] = [];
	for await (const piece of partPieces(sourceFor(plan, options.source), part, plan.serialize)) pieces.push(piece);
	return renderSummaryPrompt(
		part.kind,
		pieces.join("\n"),
		part.previousSummary,
		options.customInstructions ?? plan.customInstructions,
	);
}
