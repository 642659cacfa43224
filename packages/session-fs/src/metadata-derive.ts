import {
	type CreateSessionOptions,
	emptyMetrics,
	emptyTokenTotals,
	type SessionMetadata,
	type StoredRecord,
	sessionIdTime,
	type TokenTotals,
	type Usage,
} from "@agent/session-format";

/**
 * metadata.json is a cache of the log, plus the few facts the log does not hold (how the session
 * was created, archive state, uptime, a moved leaf). This file derives the rest from records, one
 * at a time, so a writer updates it incrementally and a rebuild replays the log through the same code.
 */

/** Records that name or label a session are not activity: they do not move lastMessageAt. */
const NOT_ACTIVITY = new Set(["session_info", "label"]);

/** The metadata of a new session, before any record. */
export function newMetadata(id: string, options: CreateSessionOptions, now: Date): SessionMetadata {
	const createdAt = options.createdAt ?? now.toISOString();
	const metadata: SessionMetadata = {
		id,
		createdAt,
		lastMessageAt: createdAt,
		model: options.model ?? "",
		messageCount: 0,
		source: options.source ?? "interactive",
		metrics: emptyMetrics(),
		metadataVersion: 1,
		lastSeq: 0,
		logBytes: 0,
		compactionCount: 0,
	};
	if (options.name !== undefined && options.name.length > 0) metadata.name = options.name;
	if (options.cronJobId !== undefined) metadata.cronJobId = options.cronJobId;
	if (options.systemPromptOverride !== undefined) metadata.systemPromptOverride = options.systemPromptOverride;
	if (options.identityKey !== undefined) metadata.identityKey = options.identityKey;
	if (options.importedFrom !== undefined) metadata.importedFrom = { ...options.importedFrom };
	return metadata;
}

/**
 * The starting point of a rebuild: what the log cannot tell, kept from the old metadata when it
 * was readable (else defaults, with createdAt from the id's time), and every derived field reset.
 */
export function rebuildBase(id: string, old: SessionMetadata | undefined): SessionMetadata {
	const createdAt = old?.createdAt ?? new Date(sessionIdTime(id)).toISOString();
	const base: SessionMetadata = {
		id,
		createdAt,
		lastMessageAt: createdAt,
		model: old?.model ?? "",
		messageCount: 0,
		source: old?.source ?? "interactive",
		metrics: emptyMetrics(),
		metadataVersion: 1,
		lastSeq: 0,
		logBytes: 0,
		compactionCount: 0,
	};
	if (!old) return base;
	for (const key of KEPT_ON_REBUILD) {
		if (old[key] !== undefined) (base as Record<string, unknown>)[key] = structuredClone(old[key]);
	}
	return base;
}

const KEPT_ON_REBUILD = [
	"name",
	"cronJobId",
	"systemPromptOverride",
	"archivedAt",
	"forkedFrom",
	"identityKey",
	"uptimeSeconds",
	"importedFrom",
] as const satisfies ReadonlyArray<keyof SessionMetadata>;

/** Folds one record into the metadata (mutates it). */
export function applyRecord(metadata: SessionMetadata, record: StoredRecord): void {
	if (record.seq > metadata.lastSeq) metadata.lastSeq = record.seq;
	if (!NOT_ACTIVITY.has(record.recordType)) {
		const time = Date.parse(record.timestamp);
		if (Number.isFinite(time) && !(time <= Date.parse(metadata.lastMessageAt))) {
			metadata.lastMessageAt = record.timestamp;
		}
	}
	switch (record.recordType) {
		case "message":
			metadata.messageCount++;
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
		default:
			break;
	}
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

/** The session's model as the context builder's default: "provider/model-id" split at the first slash. */
export function modelDefault(model: string): { provider: string; modelId: string } | undefined {
	const slash = model.indexOf("/");
	if (slash <= 0 || slash === model.length - 1) return undefined;
	return { provider: model.slice(0, slash), modelId: model.slice(slash + 1) };
}
