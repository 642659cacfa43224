import { contentText } from "./content-text.js";
import { sessionIdTime } from "./ids.js";
import type { SessionMetadata, TokenTotals } from "./metadata.js";
import { isSideRecord, parentSeqOf } from "./record-kinds.js";
import type { SessionHeader, StoredRecord, Usage } from "./records.js";
import type { CreateSessionOptions } from "./store-contract.js";
import { toWellFormed, truncateText } from "./text-cut.js";
import { emptyMetrics, emptyTokenTotals } from "./token-totals.js";

/**
 * metadata.json is a cache of the log: every field is derived from records, one at a time, so a
 * writer updates it incrementally and a rebuild replays the log through the same code (and every
 * store backend derives the same metadata from the same records). The session's creation facts
 * come from the `session` header its first record carries; a log written before headers existed
 * has none, and its facts are taken from the metadata.json it had (see `rebuildBase`).
 */

/** The longest `firstMessage` kept in metadata. */
export const FIRST_MESSAGE_CHARS = 120;

/**
 * A message's text as `firstMessage` keeps it: whitespace collapsed, cut on a whole character with
 * "…" at FIRST_MESSAGE_CHARS. It is a name of the session (listed, and kept in PostgreSQL's jsonb),
 * so U+0000 and lone surrogates (which an old log's message may hold) show as U+FFFD, in every store.
 */
export function firstMessagePreview(text: string): string {
	const collapsed = toWellFormed(text.replace(/\s+/g, " ").trim()).replaceAll("\u0000", "\uFFFD");
	return truncateText(collapsed, FIRST_MESSAGE_CHARS);
}

/** The metadata of a new session, before any record. */
export function newMetadata(id: string, options: CreateSessionOptions, now: Date): SessionMetadata {
	const createdAt = options.createdAt ?? now.toISOString();
	const metadata = emptyMetadata(id, createdAt);
	metadata.model = options.model ?? "";
	metadata.source = options.source ?? "interactive";
	if (options.name !== undefined && options.name.length > 0) metadata.name = options.name;
	if (options.cronJobId !== undefined) metadata.cronJobId = options.cronJobId;
	if (options.systemPromptOverride !== undefined) metadata.systemPromptOverride = options.systemPromptOverride;
	if (options.identityKey !== undefined) metadata.identityKey = options.identityKey;
	if (options.cwd !== undefined) metadata.cwd = options.cwd;
	if (options.createdBy !== undefined) metadata.createdBy = options.createdBy;
	if (options.uptimeSeconds !== undefined && options.uptimeSeconds > 0) metadata.uptimeSeconds = options.uptimeSeconds;
	if (options.importedFrom !== undefined) metadata.importedFrom = { ...options.importedFrom };
	return metadata;
}

function emptyMetadata(id: string, createdAt: string): SessionMetadata {
	return {
		id,
		createdAt,
		lastMessageAt: createdAt,
		model: "",
		messageCount: 0,
		source: "interactive",
		metrics: emptyMetrics(),
		metadataVersion: 1,
		lastSeq: 0,
		logBytes: 0,
		compactionCount: 0,
	};
}

/**
 * The header the first record of a session carries: the creation facts of `metadata` (a session
 * with no record yet has nothing else in it). Only what differs from the defaults is written.
 */
export function sessionHeaderOf(metadata: SessionMetadata): SessionHeader {
	const header: SessionHeader = { createdAt: metadata.createdAt };
	if (metadata.name !== undefined) header.name = metadata.name;
	if (metadata.model) header.model = metadata.model;
	if (metadata.source !== "interactive") header.source = metadata.source;
	if (metadata.cronJobId !== undefined) header.cronJobId = metadata.cronJobId;
	if (metadata.systemPromptOverride !== undefined) header.systemPromptOverride = metadata.systemPromptOverride;
	if (metadata.identityKey !== undefined) header.identityKey = metadata.identityKey;
	if (metadata.cwd !== undefined) header.cwd = metadata.cwd;
	if (metadata.createdBy !== undefined) header.createdBy = metadata.createdBy;
	if (metadata.importedFrom !== undefined) header.importedFrom = { ...metadata.importedFrom };
	if (metadata.forkedFrom !== undefined) header.forkedFrom = { ...metadata.forkedFrom };
	if (metadata.uptimeSeconds !== undefined) header.uptimeSeconds = metadata.uptimeSeconds;
	return header;
}

/**
 * The starting point of a rebuild from the whole log: defaults, with createdAt from the id's time.
 * When the log turns out to have no header at seq 1 (written before headers), `applyLegacyFacts`
 * adds what only its old metadata.json knew.
 */
export function rebuildBase(id: string): SessionMetadata {
	return emptyMetadata(id, new Date(sessionIdTime(id)).toISOString());
}

/** Facts an old log (one without a header) kept only in its metadata.json. */
const LEGACY_CREATION_FACTS = [
	"createdAt",
	"name",
	"model",
	"source",
	"cronJobId",
	"systemPromptOverride",
	"forkedFrom",
	"identityKey",
	"importedFrom",
	"cwd",
] as const satisfies ReadonlyArray<keyof SessionMetadata>;

/**
 * A log without a header (written before headers existed), before its records are replayed: the
 * creation facts its old metadata.json held, which the records then update (a session_info
 * renames it, an assistant message sets the model), as they did when it was written.
 */
export function applyLegacyCreationFacts(rebuilt: SessionMetadata, old: SessionMetadata): void {
	for (const key of LEGACY_CREATION_FACTS) {
		if (old[key] !== undefined) (rebuilt as Record<string, unknown>)[key] = structuredClone(old[key]);
	}
	rebuilt.lastMessageAt = rebuilt.createdAt;
}

/**
 * The same log after its records were replayed: an old log's archive state and uptime were kept
 * only in metadata.json, which every later change also updated, so its values are the running
 * totals and win over what the records alone say.
 */
export function applyLegacyRunningFacts(rebuilt: SessionMetadata, old: SessionMetadata): void {
	if (old.archivedAt !== undefined) rebuilt.archivedAt = old.archivedAt;
	else delete rebuilt.archivedAt;
	if (old.uptimeSeconds !== undefined) rebuilt.uptimeSeconds = old.uptimeSeconds;
}

/** Folds one record into the metadata (mutates it). */
export function applyRecord(metadata: SessionMetadata, record: StoredRecord): void {
	const header = (record as { session?: SessionHeader }).session;
	if (header !== undefined && record.recordType !== "opaque") applyHeader(metadata, header, record.seq === 1);
	if (record.seq > metadata.lastSeq) metadata.lastSeq = record.seq;
	const side = isSideRecord(record);
	if (!side) {
		const time = Date.parse(record.timestamp);
		if (Number.isFinite(time) && !(time <= Date.parse(metadata.lastMessageAt))) {
			metadata.lastMessageAt = record.timestamp;
		}
		delete metadata.leafSeq;
	} else {
		moveLeafAfterSideRecord(metadata, record);
	}
	switch (record.recordType) {
		case "message":
			metadata.messageCount++;
			if (record.role === "user" && metadata.firstMessage === undefined) {
				const text = firstMessagePreview(contentText(record.content));
				if (text.length > 0) metadata.firstMessage = text;
			}
			if (record.role === "assistant") {
				if (record.provider && record.model) metadata.model = `${record.provider}/${record.model}`;
				if (record.usage) addUsage(metadata, record.usage, record.provider, record.model);
			}
			break;
		case "model_change":
			metadata.model = `${record.provider}/${record.modelId}`;
			break;
		case "thinking_level_change":
			metadata.thinkingLevel = record.thinkingLevel;
			break;
		case "session_info":
			if (record.name !== undefined && record.name.length > 0) metadata.name = record.name;
			else delete metadata.name;
			break;
		case "compaction":
			metadata.compactionCount = (metadata.compactionCount ?? 0) + 1;
			break;
		case "archive_change":
			if (!record.archived) delete metadata.archivedAt;
			else metadata.archivedAt ??= record.timestamp;
			break;
		case "uptime":
			metadata.uptimeSeconds = (metadata.uptimeSeconds ?? 0) + record.seconds;
			break;
		case "turn":
			metadata.uptimeSeconds = (metadata.uptimeSeconds ?? 0) + record.durationMs / 1000;
			break;
		default:
			break;
	}
}

/**
 * The active leaf after a side record is its parent: where the leaf was when the parent is the
 * line before (absent parentSeq), the seq it names otherwise (a `leaf_change` names the leaf it
 * moves to). A seq that is itself a side record stands for that record's parent; readers resolve it.
 */
function moveLeafAfterSideRecord(metadata: SessionMetadata, record: StoredRecord): void {
	const parent = parentSeqOf(record);
	if (parent === null) delete metadata.leafSeq;
	else if (parent === record.seq - 1) metadata.leafSeq ??= parent;
	else metadata.leafSeq = parent;
}

function applyHeader(metadata: SessionMetadata, header: SessionHeader, first: boolean): void {
	metadata.createdAt = header.createdAt;
	if (first) metadata.lastMessageAt = header.createdAt;
	setOrDelete(metadata, "name", header.name);
	// The header is the creation facts: on the first record it says the model as created ("" when
	// none), whatever a copy's target started from (migrate adopts a session with its current model).
	if (first) metadata.model = header.model ?? "";
	else if (header.model !== undefined) metadata.model = header.model;
	metadata.source = header.source ?? "interactive";
	setOrDelete(metadata, "cronJobId", header.cronJobId);
	setOrDelete(metadata, "systemPromptOverride", header.systemPromptOverride);
	setOrDelete(metadata, "identityKey", header.identityKey);
	setOrDelete(metadata, "cwd", header.cwd);
	setOrDelete(metadata, "createdBy", header.createdBy);
	setOrDelete(metadata, "importedFrom", header.importedFrom && { ...header.importedFrom });
	setOrDelete(metadata, "forkedFrom", header.forkedFrom && { ...header.forkedFrom });
	// The uptime a session starts with; records after the header add to it.
	if (first) setOrDelete(metadata, "uptimeSeconds", header.uptimeSeconds);
}

function setOrDelete<K extends keyof SessionMetadata>(
	metadata: SessionMetadata,
	key: K,
	value: SessionMetadata[K],
): void {
	if (value === undefined) delete metadata[key];
	else metadata[key] = value;
}

function addUsage(metadata: SessionMetadata, usage: Usage, provider?: string, model?: string): void {
	const metrics = metadata.metrics ?? emptyMetrics();
	metadata.metrics = metrics;
	addTotals(metrics, usage);
	const key = provider && model ? `${provider}/${model}` : (model ?? provider ?? "unknown");
	const forModel = metrics.byModel[key] ?? emptyTokenTotals();
	metrics.byModel[key] = forModel;
	addTotals(forModel, usage);
}

function addTotals(totals: TokenTotals, usage: Usage): void {
	totals.input += usage.input;
	totals.output += usage.output;
	totals.cacheRead += usage.cacheRead ?? 0;
	totals.cacheWrite += usage.cacheWrite ?? 0;
	totals.totalTokens += usage.totalTokens;
	totals.cost += usage.cost?.total ?? 0;
	totals.turns += 1;
}

/** A copy callers may keep and change without touching the store's own. */
export function cloneMetadata(metadata: SessionMetadata): SessionMetadata {
	const copy = { ...metadata };
	if (metadata.metrics) {
		const byModel: Record<string, TokenTotals> = {};
		for (const [key, totals] of Object.entries(metadata.metrics.byModel)) byModel[key] = { ...totals };
		copy.metrics = { ...metadata.metrics, byModel };
	}
	if (metadata.forkedFrom) copy.forkedFrom = { ...metadata.forkedFrom };
	if (metadata.importedFrom) copy.importedFrom = { ...metadata.importedFrom };
	return copy;
}

/** A model name "provider/model-id" split at the first slash, as the context builder's default. */
export function modelDefault(model: string | undefined): { provider: string; modelId: string } | undefined {
	if (!model) return undefined;
	const slash = model.indexOf("/");
	if (slash <= 0 || slash === model.length - 1) return undefined;
	return { provider: model.slice(0, slash), modelId: model.slice(slash + 1) };
}
