import type { ContentBlock } from "./content.js";
import { textBlock } from "./content-text.js";
import { AgentSessionError } from "./errors.js";
import { pathSettingsOf } from "./path-settings.js";
import type { CompactionRecord, MessageRecord, StopReason, StoredRecord, Usage } from "./records.js";
import { estimateContentTokens, estimateTextTokens } from "./tokens.js";
import { SessionTree } from "./tree.js";

/** Where a context message came from. */
export type ContextOrigin = "message" | "compaction_summary" | "branch_summary" | "custom_message" | "ephemeral";

/** One message of the context an LLM sees. Shaped like pi-ai's Message, plus where it came from. */
export interface ContextMessage {
	role: "user" | "assistant" | "toolResult";
	content: ContentBlock[];
	origin: ContextOrigin;
	/** The record it was built from; absent for ephemeral messages. */
	seq?: number;
	timestamp?: string;
	toolCallId?: string;
	toolName?: string;
	isError?: boolean;
	api?: string;
	provider?: string;
	model?: string;
	usage?: Usage;
	stopReason?: StopReason;
	errorMessage?: string;
}

/** Context injected fresh on every turn and never persisted (rfc-0064's auto-injected messages). */
export interface EphemeralMessage {
	content: string | ContentBlock[];
}

export interface BuildContextOptions {
	/** The leaf whose path is the conversation; defaults to the last record. */
	leafSeq?: number;
	/** Messages placed right before the last user message; never persisted. */
	ephemeral?: readonly EphemeralMessage[];
	/** A system prompt (e.g. the session's systemPromptOverride), passed through and counted. */
	systemPrompt?: string;
	/** Model and thinking level to assume when the (possibly partial) path sets none. */
	defaults?: { model?: { provider: string; modelId: string }; thinkingLevel?: string };
}

export interface SessionContext {
	messages: ContextMessage[];
	/** chars/4 estimate of the messages and the system prompt (worked out when first read). */
	estimatedTokens: number;
	/** The latest compaction on the path, if any. */
	compaction?: CompactionRecord;
	/** The model last set on the path (model_change or an assistant message). */
	model?: { provider: string; modelId: string };
	thinkingLevel?: string;
	/** The leaf the context was built for; null for an empty session. */
	leafSeq: number | null;
	systemPrompt?: string;
	/** Tool results dropped because their tool call was not in the context. */
	droppedToolResults: number;
}

const COMPACTION_PREFIX =
	"The conversation history before this point was compacted into the following summary:\n<summary>\n";
const COMPACTION_SUFFIX = "\n</summary>";
const BRANCH_PREFIX = "The conversation came back from another branch, summarized here:\n<summary>\n";

/** The user-message text that carries a compaction summary (spec §7.4 step 3a, verbatim). */
export function compactionSummaryText(summary: string): string {
	return `${COMPACTION_PREFIX}${summary}${COMPACTION_SUFFIX}`;
}

/** The user-message text that carries a branch summary. */
export function branchSummaryText(summary: string): string {
	return `${BRANCH_PREFIX}${summary}${COMPACTION_SUFFIX}`;
}

/** Builds the context along the path to the leaf (spec §7.4) from all of a session's records. */
export function buildContext(
	records: Iterable<StoredRecord> | SessionTree,
	options: BuildContextOptions = {},
): SessionContext {
	const tree = records instanceof SessionTree ? records : new SessionTree(records);
	if (options.leafSeq !== undefined && !tree.has(options.leafSeq)) {
		throw new AgentSessionError(
			"INVALID_ARGUMENT",
			`@agent/session-format: leafSeq ${options.leafSeq} is not a record of this session (its records end at seq ${tree.lastSeq}); pass the seq of an existing record, or omit leafSeq to use the last one`,
		);
	}
	const leaf = options.leafSeq ?? tree.lastSeq;
	return buildContextFromPath(leaf === 0 ? [] : tree.path(leaf), options);
}

/**
 * Builds the context from a path in root → leaf order. The path may be a suffix of the full
 * path, as a backward read yields it, provided it reaches back to the latest compaction's
 * firstKeptSeq (or to a root when there is no compaction).
 */
export function buildContextFromPath(path: readonly StoredRecord[], options: BuildContextOptions = {}): SessionContext {
	const settings = pathSettingsOf(path);
	const model = settings.model ?? options.defaults?.model;
	const thinkingLevel = settings.thinkingLevel ?? options.defaults?.thinkingLevel;
	let compactionIndex = -1;
	for (let i = path.length - 1; i >= 0; i--) {
		if ((path[i] as StoredRecord).recordType === "compaction") {
			compactionIndex = i;
			break;
		}
	}

	const messages: ContextMessage[] = [];
	let compaction: CompactionRecord | undefined;
	let start = 0;
	if (compactionIndex >= 0) {
		compaction = path[compactionIndex] as CompactionRecord;
		messages.push({
			role: "user",
			content: [textBlock(compactionSummaryText(compaction.summary))],
			origin: "compaction_summary",
			seq: compaction.seq,
			timestamp: compaction.timestamp,
		});
		// Kept: the records before the compaction with seq >= firstKeptSeq (spec §7.4 step 3b). Seqs
		// rise along a path, so they are one run ending right before the compaction.
		const firstKept = compaction.firstKeptSeq;
		const keptIndex = path.findIndex((record, i) => i < compactionIndex && record.seq >= firstKept);
		start = keptIndex >= 0 ? keptIndex : compactionIndex + 1;
	}

	const seenToolCalls = new Set<string>();
	let droppedToolResults = 0;
	for (let i = start; i < path.length; i++) {
		if (i === compactionIndex) continue;
		const record = path[i] as StoredRecord;
		if (record.recordType === "message") {
			if (record.role === "toolResult" && (!record.toolCallId || !seenToolCalls.has(record.toolCallId))) {
				droppedToolResults++;
				continue;
			}
			if (record.role === "assistant") {
				for (const block of record.content) if (block.type === "toolCall") seenToolCalls.add(block.id);
			}
		}
		const message = contextMessageOf(record);
		if (message) messages.push(message);
	}

	if (options.ephemeral && options.ephemeral.length > 0) insertEphemeral(messages, options.ephemeral);

	const context = {
		messages,
		leafSeq: path.length > 0 ? (path[path.length - 1] as StoredRecord).seq : null,
		droppedToolResults,
	} as SessionContext;
	defineEstimate(context, options.systemPrompt);
	if (compaction) context.compaction = compaction;
	if (model) context.model = model;
	if (thinkingLevel !== undefined) context.thinkingLevel = thinkingLevel;
	if (options.systemPrompt !== undefined) context.systemPrompt = options.systemPrompt;
	return context;
}

/**
 * `estimatedTokens`, worked out on first read and kept: it measures every block (a tool call's
 * arguments are serialized to be counted), which was a tenth of a large resume's time, and most
 * resumes never ask. Enumerable, so spreads, JSON and deep equality see it as a plain field.
 */
function defineEstimate(context: SessionContext, systemPrompt: string | undefined): void {
	let estimate: number | undefined;
	Object.defineProperty(context, "estimatedTokens", {
		enumerable: true,
		configurable: true,
		get: () => {
			if (estimate === undefined) {
				estimate = systemPrompt ? estimateTextTokens(systemPrompt) : 0;
				for (const message of context.messages) estimate += estimateContentTokens(message.content);
			}
			return estimate;
		},
		set: (value: number) => {
			estimate = value;
		},
	});
}

/**
 * The context message a record contributes, as context building makes it: a message as it is,
 * a custom message or a branch summary as a user message; undefined for every other record
 * (compactions are placed by buildContextFromPath itself).
 */
export function contextMessageOf(record: StoredRecord): ContextMessage | undefined {
	switch (record.recordType) {
		case "message":
			return messageFromRecord(record);
		case "custom_message":
			return {
				role: "user",
				content: record.content,
				origin: "custom_message",
				seq: record.seq,
				timestamp: record.timestamp,
			};
		case "branch_summary":
			return {
				role: "user",
				content: [textBlock(branchSummaryText(record.summary))],
				origin: "branch_summary",
				seq: record.seq,
				timestamp: record.timestamp,
			};
		default:
			return undefined;
	}
}

function messageFromRecord(record: MessageRecord): ContextMessage {
	const message: ContextMessage = {
		role: record.role,
		content: record.content,
		origin: "message",
		seq: record.seq,
		timestamp: record.timestamp,
	};
	if (record.role === "toolResult") {
		message.toolCallId = record.toolCallId;
		message.isError = record.isError ?? false;
		if (record.toolName !== undefined) message.toolName = record.toolName;
	}
	if (record.role === "assistant") {
		if (record.api !== undefined) message.api = record.api;
		if (record.provider !== undefined) message.provider = record.provider;
		if (record.model !== undefined) message.model = record.model;
		if (record.usage !== undefined) message.usage = record.usage;
		if (record.stopReason !== undefined) message.stopReason = record.stopReason;
		if (record.errorMessage !== undefined) message.errorMessage = record.errorMessage;
	}
	return message;
}

function insertEphemeral(messages: ContextMessage[], ephemeral: readonly EphemeralMessage[]): void {
	const injected: ContextMessage[] = ephemeral.map((entry) => ({
		role: "user",
		content: typeof entry.content === "string" ? [textBlock(entry.content)] : entry.content,
		origin: "ephemeral",
	}));
	let lastUser = -1;
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i] as ContextMessage;
		if (message.role === "user" && message.origin === "message") {
			lastUser = i;
			break;
		}
	}
	if (lastUser < 0) messages.push(...injected);
	else messages.splice(lastUser, 0, ...injected);
}
