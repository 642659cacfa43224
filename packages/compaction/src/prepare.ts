import {
	type CompactionSettings,
	compactionSummaryText,
	DEFAULT_COMPACTION_SETTINGS,
	estimateTextTokens,
	type PathSettings,
	type StoredRecord,
} from "@agent/session-format/reading";
import { type FileOperationOptions, mergeFileOperations, stripFileOperations } from "./file-operations.js";
import { oversizedBlockTokens } from "./oversized.js";
import { PathScanner } from "./path-scan.js";
import { arraySource, type PathSource } from "./path-source.js";
import { SUMMARIZATION_SYSTEM_PROMPT } from "./prompts.js";
import { cutPointOfFacts } from "./scan-cut-point.js";
import type { SerializeOptions } from "./serialize.js";
import type { SummaryKind } from "./summary-prompts.js";

export interface PrepareCompactionOptions {
	/** Extra instructions for the summarizer (e.g. `/compact focus on the API design`). */
	customInstructions?: string;
	/** The context window of the session's model: caps keepRecentTokens at half of what is left after the reserve. */
	contextWindow?: number;
	/** The session's system prompt, counted in contextTokens when no reported usage can be used. */
	systemPrompt?: string;
	/** Which tools read and modify files. */
	fileOperations?: FileOperationOptions;
	/** How messages are serialized for the summarizer. */
	serialize?: SerializeOptions;
}

/**
 * One part of the summary: which records it summarizes and with which instruction. The
 * material itself is not in the plan: it is read from the plan's source and serialized chunk
 * by chunk when it is sent ({@link renderPartPrompt} renders the whole prompt on request).
 */
export interface SummaryPart {
	/** "summary": the structured summary (S7.14); "turn-prefix": the first part of a split turn. */
	part: "summary" | "turn-prefix";
	/** The instruction of the (first) call. */
	kind: SummaryKind;
	/** The seq of the first record of the part: it summarizes the path's records with fromSeq <= seq < toSeq. */
	fromSeq: number;
	/** The seq of the first record after the part (the cut, or the start of the split turn). */
	toSeq: number;
	/** How many context messages it summarizes. */
	messageCount: number;
	/** Their estimated tokens (chars/4). */
	tokens: number;
	/** The summary folded in with the update prompt (S7.17). */
	previousSummary?: string;
}

/** Everything a compaction will do, computed without side effects (the CLI's `compact --dry-run` prints it). */
export interface CompactionPlan {
	/** The first record kept: the compaction's firstKeptSeq. */
	firstKeptSeq: number;
	/** Its index in the path the plan was made from. */
	firstKeptIndex: number;
	/** Estimated tokens of the context before compaction. */
	contextTokens: number;
	/** Estimated tokens of the messages summarized now: the record's tokensBefore (spec §7.5.3 step 5). */
	tokensBefore: number;
	/** Estimated tokens of the messages kept. */
	tokensKept: number;
	/** True when the cut falls inside a turn; its first part is summarized with the turn-prefix prompt. */
	isSplitTurn: boolean;
	/** With a split turn: the seq of the user message that started it. */
	turnStartSeq?: number;
	/** The latest compaction on the path, whose summary and files this one carries on. */
	previousCompactionSeq?: number;
	/** The previous summary without its file tags; the update prompt folds the new messages into it. */
	previousSummary?: string;
	/** Cumulative files read (S7.15), without those modified (S7.16). */
	readFiles: string[];
	/** Cumulative files written or edited (S7.15). */
	modifiedFiles: string[];
	/** The system prompt of every call (spec §7.5.4). */
	systemPrompt: string;
	/**
	 * The model and thinking level in force at the end of the path (what the store would work out
	 * for the record by reading the path back, the whole log for a session never compacted): the
	 * record carries them, so appending it reads only the records it keeps.
	 */
	pathSettings: PathSettings;
	/**
	 * The summaries to make, in order: the structured summary, then a split turn's first part.
	 * Without a "summary" part (a split turn with nothing new before it) the previous summary
	 * is carried over as it is and the turn-prefix summary is merged into it.
	 */
	parts: SummaryPart[];
	settings: CompactionSettings;
	customInstructions?: string;
	serialize: SerializeOptions;
}

const SOURCES = new WeakMap<CompactionPlan, PathSource>();

/** Where a plan reads its records: the path or source it was prepared from. */
export function planSource(plan: CompactionPlan): PathSource | undefined {
	return SOURCES.get(plan);
}

/**
 * Plans a compaction of `path` (root → leaf, or the suffix a resume reads: from the latest
 * compaction's firstKeptSeq). Undefined when there is nothing to summarize: everything fits in
 * keepRecentTokens, or no valid cut point exists. `settings.enabled` is not consulted here; it
 * gates automatic compaction ({@link shouldCompact}), a manual one always runs.
 *
 * One pass over the records; nothing is serialized and no prompt is rendered (that happens
 * chunk by chunk when `compact` sends it).
 */
export function prepareCompaction(
	path: readonly StoredRecord[],
	settings: CompactionSettings = DEFAULT_COMPACTION_SETTINGS,
	options: PrepareCompactionOptions = {},
): CompactionPlan | undefined {
	const scanner = new PathScanner(options.fileOperations, maxBlockTokensOf(options, settings));
	for (const record of path) scanner.add(record);
	const plan = planFromScan(scanner, settings, options);
	if (plan) SOURCES.set(plan, arraySource(path));
	return plan;
}

/**
 * {@link prepareCompaction} on a path streamed from `source` (a store's log): the same plan, in
 * one read, keeping a few numbers per record instead of the records, so a session of any size
 * is planned in memory that does not grow with its bytes.
 */
export async function prepareCompactionFrom(
	source: PathSource,
	settings: CompactionSettings = DEFAULT_COMPACTION_SETTINGS,
	options: PrepareCompactionOptions = {},
): Promise<CompactionPlan | undefined> {
	const scanner = new PathScanner(options.fileOperations, maxBlockTokensOf(options, settings));
	for await (const record of source(0)) scanner.add(record);
	const plan = planFromScan(scanner, settings, options);
	if (plan) SOURCES.set(plan, source);
	return plan;
}

function planFromScan(
	scanner: PathScanner,
	settings: CompactionSettings,
	options: PrepareCompactionOptions,
): CompactionPlan | undefined {
	const facts = scanner.facts;
	const start = scanner.regionStart;
	const end = scanner.end;
	const cut = cutPointOfFacts(facts, effectiveKeepRecentTokens(settings, options.contextWindow), start, end);
	if (!cut) return undefined;
	const summarizeEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.index;
	const history = scanner.facts.contextMessages(start, summarizeEnd);
	const turnPrefix = cut.isSplitTurn
		? scanner.facts.contextMessages(cut.turnStartIndex, cut.index)
		: { count: 0, tokens: 0 };
	if (history.count === 0 && turnPrefix.count === 0) return undefined;

	const previous = scanner.latest;
	const previousSummary = previous ? stripFileOperations(previous.summary) : undefined;
	const files = mergeFileOperations(
		previous,
		...scanner.branchFiles.filter((files) => files.index >= start && files.index < cut.index),
		extractedFiles(scanner, start, cut.index),
	);

	const custom = options.customInstructions;
	const parts: SummaryPart[] = [];
	const part = (
		name: SummaryPart["part"],
		kind: SummaryKind,
		from: number,
		to: number,
		counted: { count: number; tokens: number },
		previousSummary?: string,
	) => {
		const result: SummaryPart = {
			part: name,
			kind,
			fromSeq: facts.seq(from),
			toSeq: facts.seq(to),
			messageCount: counted.count,
			tokens: counted.tokens,
		};
		if (previousSummary !== undefined) result.previousSummary = previousSummary;
		parts.push(result);
	};
	if (history.count > 0) {
		part("summary", previousSummary ? "update" : "initial", start, summarizeEnd, history, previousSummary);
	}
	if (turnPrefix.count > 0) {
		// A split turn with nothing before it and no previous summary: its first part is the
		// whole history, and gets the structured summary.
		const whole = history.count === 0 && previousSummary === undefined;
		part(
			whole ? "summary" : "turn-prefix",
			whole ? "initial" : "turn-prefix",
			cut.turnStartIndex,
			cut.index,
			turnPrefix,
		);
	}

	const plan: CompactionPlan = {
		firstKeptSeq: cut.seq,
		firstKeptIndex: cut.index,
		contextTokens: contextTokensOf(scanner, options.systemPrompt),
		tokensBefore: history.tokens + turnPrefix.tokens,
		tokensKept: cut.keptTokens,
		isSplitTurn: cut.isSplitTurn,
		readFiles: files.readFiles,
		modifiedFiles: files.modifiedFiles,
		systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
		pathSettings: scanner.settings.settings,
		parts,
		settings: { ...settings },
		serialize: serializeOptions(options, settings),
	};
	if (cut.isSplitTurn) plan.turnStartSeq = facts.seq(cut.turnStartIndex);
	if (previous) plan.previousCompactionSeq = previous.seq;
	if (previousSummary !== undefined) plan.previousSummary = previousSummary;
	if (custom !== undefined) plan.customInstructions = custom;
	return plan;
}

/**
 * keepRecentTokens, capped (when the model's window is known) at half of the window left after
 * the reserve, so that what is kept always leaves room: a small-window model still compacts.
 */
export function effectiveKeepRecentTokens(settings: CompactionSettings, contextWindow?: number): number {
	if (contextWindow === undefined || !Number.isFinite(contextWindow) || contextWindow <= 0) {
		return settings.keepRecentTokens;
	}
	const cap = Math.max(0, Math.floor((contextWindow - settings.reserveTokens) / 2));
	return Math.min(settings.keepRecentTokens, cap);
}

/** The files the tool calls in [from, to) read and modified; a call whose result was an error touched nothing. */
function extractedFiles(scanner: PathScanner, from: number, to: number) {
	const read = new Set<string>();
	const modified = new Set<string>();
	const paths = scanner.filePaths();
	for (let i = 0; i < scanner.fileCallIndex.length; i++) {
		const index = scanner.fileCallIndex[i] as number;
		if (index < from || index >= to || scanner.failedCalls.has(index)) continue;
		const file = scanner.fileCallFile[i] as number;
		((file & 1) === 1 ? modified : read).add(paths[file >> 1] as string);
	}
	return { readFiles: [...read], modifiedFiles: [...modified] };
}

/**
 * The context's size as {@link estimateContextTokens} works it out (the latest usable reported
 * usage plus estimates of what follows; else estimates of everything, system prompt included),
 * from the scan: tool results whose call is not in the context are dropped from it, as context
 * building does.
 */
function contextTokensOf(scanner: PathScanner, systemPrompt: string | undefined): number {
	const facts = scanner.facts;
	const start = scanner.contextStart;
	if (scanner.lastUsageIndex >= 0) {
		return scanner.lastUsageTokens + facts.contextMessages(scanner.lastUsageIndex + 1, facts.end, start).tokens;
	}
	let tokens = systemPrompt ? estimateTextTokens(systemPrompt) : 0;
	if (scanner.latest) tokens += estimateTextTokens(compactionSummaryText(scanner.latest.summary));
	return tokens + facts.contextMessages(Math.max(start, facts.base), facts.end, start).tokens;
}

/** The block size beyond which records are cut, as serializeOptions decides it. */
function maxBlockTokensOf(options: PrepareCompactionOptions, settings: CompactionSettings): number {
	return serializeOptions(options, settings).maxBlockTokens ?? Number.POSITIVE_INFINITY;
}

/** The plan's serialization: the given options, with oversized blocks cut to fit the window when it is known. */
function serializeOptions(options: PrepareCompactionOptions, settings: CompactionSettings): SerializeOptions {
	const given = options.serialize ?? {};
	if (given.maxBlockTokens !== undefined) return given;
	const maxBlockTokens = oversizedBlockTokens(options.contextWindow, settings.reserveTokens);
	return Number.isFinite(maxBlockTokens) ? { ...given, maxBlockTokens } : given;
}
