import { estimateTextTokens } from "@agent/session-format/reading";
import type { Model } from "@mariozechner/pi-ai";
import { summaryMaxTokens } from "./compact.js";
import { partPieces, sourceFor } from "./part-material.js";
import type { PathSource } from "./path-source.js";
import type { CompactionPlan, SummaryPart } from "./prepare.js";
import { MIN_CHUNK_TOKENS, pieceCost, SAFETY } from "./summarize-chunks.js";
import { FOLD_KIND, renderSummaryPrompt } from "./summary-prompts.js";

/** How many summarizer calls a plan takes, worked out without making any. */
export interface ChunkEstimate {
	/** The summarizer's window the estimate is for (Infinity: unknown, one call per part). */
	summarizerWindow: number;
	/** Tokens reserved for each answer. */
	maxTokens: number;
	/** Calls per part, in the plan's order. */
	parts: { part: SummaryPart["part"]; chunks: number; materialTokens: number }[];
	/** Calls in all. */
	chunks: number;
	/** True when every part's material fits its summarizer call in one. */
	fitsInOneCall: boolean;
}

export interface ChunkEstimateOptions {
	model: Pick<Model<string>, "contextWindow" | "maxTokens">;
	summarizerContextWindow?: number;
	maxTokens?: number;
	customInstructions?: string;
	source?: PathSource;
}

/**
 * Reads the plan's material as compact() would (serialized, oversized blocks cut) and packs it
 * into chunks with the same budget rule, taking the summary so far to be as long as an answer
 * may be: an estimate, for `compact --dry-run` and progress totals. Calls no model.
 */
export async function estimateChunks(plan: CompactionPlan, options: ChunkEstimateOptions): Promise<ChunkEstimate> {
	const configured = options.summarizerContextWindow ?? options.model.contextWindow;
	const window = configured !== undefined && Number.isFinite(configured) && configured > 0 ? configured : Infinity;
	const maxTokens = options.maxTokens ?? summaryMaxTokens(plan, { model: options.model as Model<string> }, window);
	const source = sourceFor(plan, options.source);
	const custom = options.customInstructions ?? plan.customInstructions;
	const fixed = estimateTextTokens(plan.systemPrompt) + maxTokens;
	const foldSummary = "x".repeat(maxTokens * 4);
	const parts: ChunkEstimate["parts"] = [];
	for (const part of plan.parts) {
		const budget = (first: boolean): number => {
			if (!Number.isFinite(window)) return Infinity;
			const kind = first ? part.kind : FOLD_KIND[part.kind];
			const summary = first ? part.previousSummary : foldSummary;
			const overhead = fixed + estimateTextTokens(renderSummaryPrompt(kind, "", summary, custom));
			return Math.max(MIN_CHUNK_TOKENS, Math.floor((window - overhead) * SAFETY));
		};
		let chunks = 0;
		let used = 0;
		let materialTokens = 0;
		for await (const piece of partPieces(source, part, plan.serialize)) {
			let cost = pieceCost(piece);
			materialTokens += cost;
			for (;;) {
				const room = budget(chunks === 0);
				if (used + cost <= room) {
					used += cost;
					break;
				}
				if (used > 0) {
					chunks++;
					used = 0;
					continue;
				}
				// One piece bigger than a chunk: compact() splits it.
				cost -= room;
				chunks++;
			}
		}
		if (used > 0 || chunks === 0) chunks++;
		parts.push({ part: part.part, chunks, materialTokens });
	}
	const chunks = parts.reduce((sum, part) => sum + part.chunks, 0);
	return { summarizerWindow: window, maxTokens, parts, chunks, fitsInOneCall: parts.every((p) => p.chunks <= 1) };
}

/**
 * Whether compacting by this plan makes the context smaller: what it keeps plus the longest
 * summary must come in under the context now. When it does not (the tokens are in what is
 * kept, e.g. one huge recent message), a compaction would only spend calls; `reason` says why.
 */
export function compactionReduces(
	plan: Pick<CompactionPlan, "contextTokens" | "tokensKept">,
	summaryTokens: number,
): { reduces: boolean; tokensAfter: number; reason?: string } {
	const tokensAfter = plan.tokensKept + summaryTokens;
	if (tokensAfter < plan.contextTokens) return { reduces: true, tokensAfter };
	return {
		reduces: false,
		tokensAfter,
		reason: `compacting cannot reduce the context: it keeps ~${plan.tokensKept} tokens word for word and a summary may take ~${summaryTokens}, not less than the ~${plan.contextTokens} tokens now`,
	};
}
