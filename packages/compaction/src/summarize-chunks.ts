import { codePointBoundary, estimateTextTokens, headOf } from "@agent/session-format/reading";
import { compactionFailed } from "./errors.js";
import { missingSummarySections } from "./sections.js";
import { requestSummary, type SummarizerCall, SummarizerOverflow } from "./summarizer.js";
import { FOLD_KIND, renderSummaryPrompt, type SummaryKind } from "./summary-prompts.js";

/** Material for one summary, and how to ask for it. */
export interface SummaryJob {
	/** The instruction of the first call; later calls fold in with the matching update kind. */
	kind: SummaryKind;
	/**
	 * The serialized messages, in order (each one or more lines of §7.5.5 text). Read lazily: only
	 * the pieces of the chunk being sent (and one more) are held at a time.
	 */
	pieces: Iterable<string> | AsyncIterable<string>;
	previousSummary?: string;
	customInstructions?: string;
	/** Sections the answer must have (S7.14); with none, it must just not be empty. */
	requiredSections: readonly string[];
	/** Called after every chunk summarized, with the calls made so far and the pieces they covered. */
	onChunk?: (progress: { chunks: number; pieces: number }) => void;
}

export interface JobResult {
	summary: string;
	/** Successful calls made (one per chunk). */
	chunks: number;
}

// chars/4 is an estimate; leave a tenth of the room free for what it misses.
export const SAFETY = 0.9;
// Below this many tokens of material per call, chunking cannot make progress worth making.
export const MIN_CHUNK_TOKENS = 64;
// How often a chunk is halved after the provider reports an overflow anyway.
const MAX_HALVINGS = 3;

/**
 * Summarizes the job's material in as many calls as the summarizer's window needs: the first
 * chunk with the job's prompt, each next one folded into the summary so far with the update
 * prompt. `windowTokens` is the summarizer's context window (Infinity: one call).
 */
export async function runSummaryJob(
	job: SummaryJob,
	call: SummarizerCall,
	systemPrompt: string,
	windowTokens: number,
): Promise<JobResult> {
	let summary = job.previousSummary;
	const queue = new PieceQueue(job.pieces);
	let chunks = 0;
	let pieces = 0;
	let halvings = 0;
	const fixed = estimateTextTokens(systemPrompt) + call.maxTokens;
	for (;;) {
		const kind = chunks === 0 ? job.kind : FOLD_KIND[job.kind];
		const overhead = fixed + estimateTextTokens(renderSummaryPrompt(kind, "", summary, job.customInstructions));
		const budget = Number.isFinite(windowTokens)
			? Math.floor((windowTokens - overhead) * SAFETY * 0.5 ** halvings)
			: Number.POSITIVE_INFINITY;
		if (budget < MIN_CHUNK_TOKENS) {
			throw compactionFailed(
				`the summarizer's context window (${windowTokens} tokens) leaves no room for material next to its prompt, the summary so far and the ${call.maxTokens} tokens reserved for its answer; nothing was written. Use a compaction model with a larger window (at least ${overhead + 4 * MIN_CHUNK_TOKENS} tokens)`,
			);
		}
		await queue.fill(budget);
		// No material at all: one call with an empty conversation.
		if (queue.empty && chunks > 0) break;
		const [taken, rest] = takeChunk(queue.empty ? [""] : queue.items, budget);
		const prompt = renderSummaryPrompt(kind, taken.join("\n"), summary, job.customInstructions);
		try {
			summary = await validatedRequest(call, systemPrompt, prompt, job.requiredSections);
		} catch (error) {
			if (!(error instanceof SummarizerOverflow)) throw error;
			if (halvings >= MAX_HALVINGS || !Number.isFinite(windowTokens)) {
				throw compactionFailed(
					`the summarizer still reported a context overflow with a chunk of ${budget} tokens ("${error.message}"); nothing was written. Pass the summarizer's real window as summarizerContextWindow, or use a compaction model with a larger window`,
					error,
				);
			}
			halvings++;
			continue;
		}
		if (!queue.empty) {
			pieces += queue.items.length - rest.length;
			queue.replace(rest);
		}
		chunks++;
		job.onChunk?.({ chunks, pieces });
		if (queue.empty && queue.exhausted) break;
	}
	return { summary: summary ?? "", chunks };
}

/** The pieces read so far and not yet summarized, pulled from the job's iterable as chunks need them. */
class PieceQueue {
	items: string[] = [];
	exhausted = false;
	private cost = 0;
	private readonly iterator: Iterator<string> | AsyncIterator<string>;

	constructor(pieces: Iterable<string> | AsyncIterable<string>) {
		this.iterator =
			Symbol.asyncIterator in pieces
				? (pieces as AsyncIterable<string>)[Symbol.asyncIterator]()
				: (pieces as Iterable<string>)[Symbol.iterator]();
	}

	get empty(): boolean {
		return this.items.length === 0;
	}

	/** Reads pieces until they cost more than `budget` tokens (so a chunk can be taken), or until there are no more. */
	async fill(budget: number): Promise<void> {
		while (!this.exhausted && this.cost <= budget) {
			const next = await this.iterator.next();
			if (next.done) {
				this.exhausted = true;
				break;
			}
			this.items.push(next.value);
			this.cost += pieceCost(next.value);
		}
	}

	replace(rest: string[]): void {
		this.items = rest;
		this.cost = 0;
		for (const piece of rest) this.cost += pieceCost(piece);
	}
}

/** What one piece costs in a chunk: its tokens and the newline that joins it. */
export function pieceCost(piece: string): number {
	return estimateTextTokens(piece) + 1;
}

/** The leading pieces that fit `budget` tokens; a single piece larger than that is split. */
function takeChunk(queue: readonly string[], budget: number): [string[], string[]] {
	const taken: string[] = [];
	let used = 0;
	let i = 0;
	for (; i < queue.length; i++) {
		const piece = queue[i] as string;
		const cost = pieceCost(piece);
		if (used + cost > budget) break;
		taken.push(piece);
		used += cost;
	}
	if (taken.length === 0) {
		const piece = queue[0] as string;
		// At least one whole character (a pair stays together), on a whole-character boundary.
		const chars = Math.max(1, (budget - 1) * 4);
		const head = headOf(piece, chars) || piece.slice(0, codePointBoundary(piece, 2) || 1);
		return [[head], [piece.slice(head.length), ...queue.slice(1)]];
	}
	return [taken, queue.slice(i)];
}

/** One call whose answer is checked; a wrong answer is asked for once more, then it fails. */
async function validatedRequest(
	call: SummarizerCall,
	systemPrompt: string,
	prompt: string,
	required: readonly string[],
): Promise<string> {
	const first = await requestSummary(call, systemPrompt, prompt);
	const firstProblems = problemsOf(first, required);
	if (firstProblems.length === 0) return first;
	const second = await requestSummary(call, systemPrompt, `${prompt}\n\n${reminder(firstProblems)}`);
	const secondProblems = problemsOf(second, required);
	if (secondProblems.length === 0) return second;
	throw compactionFailed(
		`the summarizer's answer was unusable twice (${secondProblems.join(", ")}); a summary needs the sections ${required.map((s) => `## ${s}`).join(", ") || "(any text)"} (spec S7.14). Nothing was written; compact again, or configure a more capable compaction model`,
	);
}

function problemsOf(answer: string, required: readonly string[]): string[] {
	if (answer.trim().length === 0) return ["the answer was empty"];
	return missingSummarySections(answer, required).map((section) => `no "## ${section}" section`);
}

function reminder(problems: readonly string[]): string {
	return `Your previous answer could not be used: ${problems.join("; ")}. Answer again with ONLY the summary, using every section of the EXACT format above.`;
}
