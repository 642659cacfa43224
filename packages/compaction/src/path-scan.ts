import {
	type BranchSummaryRecord,
	type CompactionRecord,
	type MessageRecord,
	PathSettingsFollower,
	type StoredRecord,
} from "@agent/session-format/reading";
import { DEFAULT_FILE_TOOLS, DEFAULT_PATH_ARGUMENTS, type FileOperationOptions } from "./file-operations.js";
import { BlockLimit, cappedContentTokens } from "./oversized.js";
import { BOUNDARY, COMPACTION, CONTEXT, PathFacts, STARTS_TURN, TOOL_RESULT } from "./path-facts.js";
import { estimateRecordTokens, usageTokens } from "./tokens.js";

/**
 * One pass over a path (root → leaf, or the suffix a resume reads), record by record, keeping
 * only what planning a compaction needs: per record its seq, token estimate and kind (in
 * {@link PathFacts}), the tool calls still to be matched with results, the file tool calls, the
 * latest compaction and the latest usable usage. A compaction met on the way makes everything
 * before the records it kept irrelevant, and that is dropped. Works the same whether the records
 * come from an array or stream from a store, so a session of any size is planned in one read.
 */
export class PathScanner {
	/**
	 * V8 forgets a hidden class once no object of it is alive and throws away the optimized code
	 * that checks for it: after a full GC between two plans, the next plan ran its per-record code
	 * unoptimized (several times slower on a small session) while it was compiled again. One
	 * scanner kept for good keeps its classes, and those of its facts, settings and block limit,
	 * alive (69 KB). Its limit is a whole number, as the limits of plans are (see BlockLimit).
	 */
	// biome-ignore lint/correctness/noUnusedPrivateClassMembers: it is never read, only kept alive
	static readonly #keptForItsHiddenClasses = new PathScanner({}, 1000);

	readonly facts = new PathFacts();
	/** Tool-call id → path index of the latest call with it that has no result yet. */
	private readonly callIndex = new Map<string, number>();
	/**
	 * File tool calls, in parallel lists of small integers: the path index of each, and its file
	 * (2 × the file's number, plus 1 when the call modifies it). Lists of one kind of value only:
	 * V8 recompiled the scanner on every plan when a list started empty and then took strings.
	 */
	readonly fileCallIndex: number[] = [];
	readonly fileCallFile: number[] = [];
	/** File path → its number: each path is kept once, however many calls name it. */
	private readonly fileNumbers = new Map<string, number>();
	/** Path indices of calls whose result was an error (they touched no file). */
	readonly failedCalls = new Set<number>();
	readonly branchFiles: Array<{ index: number; readFiles?: string[]; modifiedFiles?: string[] }> = [];
	latest?: CompactionRecord;
	latestIndex = -1;
	/** First index the context holds besides the summary (spec §7.4 step 3b: seq >= firstKeptSeq). */
	contextStart = 0;
	/** First index a new compaction may summarize: the previous compaction's firstKeptSeq, exactly. */
	regionStart = 0;
	/** The model and thinking level in force at the end of the path, for the compaction record. */
	readonly settings = new PathSettingsFollower();
	/**
	 * The latest assistant message after the latest compaction whose reported usage may be used:
	 * its path index (-1: none) and the tokens it reported. Two numbers, not an object per message:
	 * nothing is allocated per record.
	 */
	lastUsageIndex = -1;
	lastUsageTokens = 0;
	/** Tool name → whether it modifies (true) or reads (false) the file in its arguments. */
	private readonly fileTools = new Map<string, boolean>();
	private readonly pathArguments;
	private readonly blockLimit: BlockLimit;

	/**
	 * `maxBlockTokens`: records are measured as the model and the summarizer get them, with text
	 * and thinking blocks over it cut (see oversized.ts); Infinity measures them whole.
	 */
	constructor(options: FileOperationOptions = {}, maxBlockTokens = Number.POSITIVE_INFINITY) {
		this.blockLimit = BlockLimit.of(maxBlockTokens);
		for (const [name, access] of Object.entries(options.tools ?? DEFAULT_FILE_TOOLS)) {
			if (access === "read" || access === "modify") this.fileTools.set(name, access === "modify");
		}
		this.pathArguments = options.pathArguments ?? DEFAULT_PATH_ARGUMENTS;
	}

	/** The number of records seen: one past the last path index. */
	get end(): number {
		return this.facts.end;
	}

	add(record: StoredRecord): void {
		const index = this.facts.end;
		let flags = 0;
		let tokens = 0;
		let call = -1;
		switch (record.recordType) {
			case "message":
				tokens = cappedContentTokens(record.content, this.blockLimit);
				if (record.role === "toolResult") {
					flags = CONTEXT | TOOL_RESULT;
					call = this.pairResult(record);
				} else if (record.role === "user") {
					flags = CONTEXT | BOUNDARY | STARTS_TURN;
				} else {
					flags = CONTEXT | BOUNDARY;
					this.addAssistant(record, index);
				}
				break;
			case "custom_message":
				flags = CONTEXT | BOUNDARY;
				tokens = cappedContentTokens(record.content, this.blockLimit);
				break;
			case "branch_summary":
				flags = CONTEXT | BOUNDARY | STARTS_TURN;
				tokens = estimateRecordTokens(record);
				this.addBranchFiles(record, index);
				break;
			case "compaction":
				flags = BOUNDARY | COMPACTION;
				break;
		}
		this.facts.push(record.seq, tokens, flags, call);
		this.settings.add(record);
		if (record.recordType === "compaction") this.startRegion(record, index);
	}

	/** The path index of the call a tool result answers (-1: none waiting with its id). */
	private pairResult(record: MessageRecord): number {
		const id = record.toolCallId;
		const found = id === undefined ? undefined : this.callIndex.get(id);
		if (found === undefined) return -1;
		if (record.isError) this.failedCalls.add(found);
		// Answered: only calls still waiting are kept, so memory follows the open calls, not the
		// session. A second result for the same id pairs with no call.
		this.callIndex.delete(id as string);
		return found;
	}

	private addBranchFiles(record: BranchSummaryRecord, index: number): void {
		if (!record.readFiles && !record.modifiedFiles) return;
		const files: (typeof this.branchFiles)[number] = { index };
		if (record.readFiles) files.readFiles = record.readFiles;
		if (record.modifiedFiles) files.modifiedFiles = record.modifiedFiles;
		this.branchFiles.push(files);
	}

	private addAssistant(record: MessageRecord, index: number): void {
		for (const block of record.content) {
			if (block.type !== "toolCall") continue;
			this.callIndex.set(block.id, index);
			const modify = this.fileTools.get(block.name);
			if (modify === undefined) continue;
			const path = pathOf(block.arguments, this.pathArguments);
			if (path === undefined) continue;
			let file = this.fileNumbers.get(path);
			if (file === undefined) {
				file = this.fileNumbers.size;
				this.fileNumbers.set(path, file);
			}
			this.fileCallIndex.push(index);
			this.fileCallFile.push(file * 2 + (modify ? 1 : 0));
		}
		const usage = record.usage;
		if (!usage || record.stopReason === "error" || record.stopReason === "aborted") return;
		const tokens = usageTokens(usage);
		if (tokens > 0) {
			this.lastUsageIndex = index;
			this.lastUsageTokens = tokens;
		}
	}

	/** The paths of the files the file calls name, by number. */
	filePaths(): string[] {
		const paths: string[] = [];
		for (const [path, file] of this.fileNumbers) paths[file] = path;
		return paths;
	}

	/** A compaction: what it kept and what follows it is all a new one needs. */
	private startRegion(record: CompactionRecord, index: number): void {
		this.latest = record;
		this.latestIndex = index;
		this.lastUsageIndex = -1;
		const kept = this.facts.firstAtOrAfter(record.firstKeptSeq, this.facts.base, index);
		this.contextStart = kept < index ? kept : index + 1;
		this.regionStart = kept < index && this.facts.seq(kept) === record.firstKeptSeq ? kept : index + 1;
		this.facts.dropBefore(Math.min(this.contextStart, index));
		// A call before the context is never matched by a later result: as if it were absent.
		for (const [id, at] of this.callIndex) if (at < this.contextStart) this.callIndex.delete(id);
		const start = this.regionStart;
		let calls = 0;
		for (let i = 0; i < this.fileCallIndex.length; i++) {
			if ((this.fileCallIndex[i] as number) < start) continue;
			this.fileCallIndex[calls] = this.fileCallIndex[i] as number;
			this.fileCallFile[calls] = this.fileCallFile[i] as number;
			calls++;
		}
		this.fileCallIndex.length = calls;
		this.fileCallFile.length = calls;
		removeWhere(this.branchFiles, (files) => files.index < start);
		for (const at of this.failedCalls) if (at < start) this.failedCalls.delete(at);
	}
}

function removeWhere<T>(list: T[], drop: (item: T) => boolean): void {
	let kept = 0;
	for (const item of list) if (!drop(item)) list[kept++] = item;
	list.length = kept;
}

function pathOf(args: Record<string, unknown> | undefined, keys: readonly string[]): string | undefined {
	if (!args) return undefined;
	for (const key of keys) {
		const value = args[key];
		if (typeof value === "string" && value.length > 0) return value;
	}
	return undefined;
}
