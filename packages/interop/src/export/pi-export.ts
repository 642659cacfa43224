import {
	type BranchSummaryRecord,
	type CompactionRecord,
	type CustomMessageRecord,
	type CustomRecord,
	type MessageRecord,
	parentSeqOf,
	type StoredRecord,
} from "@agent/session-format";
import { PI_HEADER_TYPE } from "../formats/pi-import.js";
import { PI_BASH_TYPE, PI_PREFIX } from "../formats/pi-messages.js";
import { isObject } from "../json-lines.js";
import { LEAF_MARKER_TYPE } from "../record-list.js";
import type { ExportInfo, RecordSource } from "./record-source.js";

export interface PiExportOptions {
	/** The pi session id to write in the header; default one derived from our session id (the same on every export). */
	piSessionId?: string;
	/** The header's cwd; default the cwd an import kept (pi header, Codex meta, Claude Code envelope), else the process's. */
	cwd?: string;
}

/** The customType of opaque records (lines our reader could not interpret) in a pi file. */
export const OPAQUE_CUSTOM_TYPE = "agent-sessions:opaque";

const ZERO_USAGE = {
	input: 0,
	output: 0,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 0,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** pi's id for the entry written for a record: its seq in 8 hex digits (unique, stable). */
export function piEntryId(seq: number): string {
	return seq.toString(16).padStart(8, "0");
}

/**
 * A session as a pi v3 session file, one line per chunk. Every record becomes one entry with
 * its tree kept (parentSeq → parentId); an imported pi header is not repeated as an entry;
 * records pi has no type for become `custom` entries; pi entries an import kept as custom
 * records are written back as they were. pi's active leaf is the last entry: when ours is an
 * earlier record, a custom entry under it ends the file.
 */
export async function* piExportLines(
	source: RecordSource,
	info: ExportInfo,
	options: PiExportOptions = {},
): AsyncGenerator<string> {
	const parents = new Map<number, number | null>();
	/** Records not written as entries, and the entry id their children attach to instead. */
	const skipped = new Map<number, string | null>();
	const extras = await extrasByEntry(source);
	const idOf = (seq: number | null): string | null => {
		if (seq === null) return null;
		return skipped.has(seq) ? (skipped.get(seq) as string | null) : piEntryId(seq);
	};
	let headerWritten = false;
	let lastSeq = 0;
	for await (const record of source()) {
		const parent = parentSeqOf(record);
		parents.set(record.seq, parent);
		lastSeq = record.seq;
		if (isImportedPiHeader(record)) {
			if (!headerWritten) {
				const cwd = options.cwd ?? (isObject(record.data) ? record.data.cwd : undefined);
				yield headerLine(info, options, typeof cwd === "string" ? cwd : undefined);
				headerWritten = true;
			}
			skipped.set(record.seq, idOf(parent));
			continue;
		}
		if (!headerWritten) {
			yield headerLine(info, options, options.cwd ?? importedCwd(record));
			headerWritten = true;
		}
		if (isExtrasOf(record, extras)) {
			// Written back into the entry it belongs to (below); its children attach to that entry.
			skipped.set(record.seq, idOf(parent));
			continue;
		}
		const base = { id: piEntryId(record.seq), parentId: idOf(parent), timestamp: record.timestamp };
		const entry = piEntry(record, base, { idOf, parents, skipped, info });
		yield `${JSON.stringify(withExtras(entry, extras.get(record.seq)))}\n`;
	}
	if (!headerWritten) yield headerLine(info, options, options.cwd);
	const leaf = info.leafSeq;
	if (leaf !== undefined && leaf !== lastSeq && parents.has(leaf)) {
		const marker = {
			type: "custom",
			id: piEntryId(lastSeq + 1),
			parentId: idOf(leaf),
			timestamp: new Date().toISOString(),
			customType: LEAF_MARKER_TYPE,
			data: { note: "the active leaf is the parent of this entry" },
		};
		yield `${JSON.stringify(marker)}\n`;
	}
}

interface Links {
	idOf(seq: number | null): string | null;
	parents: ReadonlyMap<number, number | null>;
	skipped: ReadonlyMap<number, string | null>;
	info: ExportInfo;
}

/** What a pi import kept of a compaction's or branch summary's extension details and fromHook. */
interface PiExtras {
	seq: number;
	details?: unknown;
	fromHook?: unknown;
}

/** The kept extras (`pi:compaction-extras`, `pi:branch_summary-extras`) by the seq of the record they belong to (their parent). */
async function extrasByEntry(source: RecordSource): Promise<Map<number, PiExtras>> {
	const out = new Map<number, PiExtras>();
	const kinds = new Map<number, string>();
	for await (const record of source()) {
		kinds.set(record.seq, record.recordType);
		if (record.recordType !== "custom" || !isObject(record.data)) continue;
		const owner = EXTRAS_OWNERS.get(record.customType);
		const parent = parentSeqOf(record);
		if (!owner || parent === null || kinds.get(parent) !== owner || out.has(parent)) continue;
		out.set(parent, { seq: record.seq, details: record.data.details, fromHook: record.data.fromHook });
	}
	return out;
}

const EXTRAS_OWNERS: ReadonlyMap<string, string> = new Map([
	[`${PI_PREFIX}compaction-extras`, "compaction"],
	[`${PI_PREFIX}branch_summary-extras`, "branch_summary"],
]);

function isExtrasOf(record: StoredRecord, extras: ReadonlyMap<number, PiExtras>): boolean {
	const parent = parentSeqOf(record);
	return parent !== null && extras.get(parent)?.seq === record.seq;
}

function withExtras(entry: Record<string, unknown>, extras: PiExtras | undefined): Record<string, unknown> {
	if (!extras) return entry;
	const out = { ...entry };
	if (extras.details !== undefined) out.details = extras.details;
	if (extras.fromHook !== undefined) out.fromHook = extras.fromHook;
	return out;
}

type Base = { id: string; parentId: string | null; timestamp: string };

function piEntry(record: StoredRecord, base: Base, links: Links): Record<string, unknown> {
	switch (record.recordType) {
		case "message":
			return { type: "message", ...base, message: piMessage(record, links.info) };
		case "compaction":
			return { type: "compaction", ...base, ...piCompaction(record, links) };
		case "model_change":
			return { type: "model_change", ...base, provider: record.provider, modelId: record.modelId };
		case "thinking_level_change":
			return { type: "thinking_level_change", ...base, thinkingLevel: record.thinkingLevel };
		case "session_info":
			return { type: "session_info", ...base, name: record.name };
		case "label":
			return { type: "label", ...base, targetId: links.idOf(record.targetSeq), label: record.label };
		case "branch_summary":
			return { type: "branch_summary", ...base, ...piBranchSummary(record, links) };
		case "custom":
			return piCustom(record, base);
		case "custom_message":
			return piCustomMessage(record, base);
		case "opaque":
			return { type: "custom", ...base, customType: OPAQUE_CUSTOM_TYPE, data: record.original };
		case "leaf_change":
		case "archive_change":
		case "uptime":
		case "turn":
		case "damage_ack": {
			// pi has no such entries: kept as custom entries pi carries but never sends to a model.
			const { recordType, schemaVersion: _v, seq: _s, timestamp: _t, parentSeq: _p, ...data } = record;
			return { type: "custom", ...base, customType: `agent-sessions.${recordType}`, data };
		}
	}
}

function piMessage(record: MessageRecord, info: ExportInfo): Record<string, unknown> {
	const timestamp = Date.parse(record.timestamp) || 0;
	switch (record.role) {
		case "user":
			return { role: "user", content: record.content, timestamp };
		case "assistant":
			return {
				role: "assistant",
				content: record.content,
				api: record.api,
				// pi takes the session's model from the last answer: it must name one (an import may not know it).
				provider: record.provider || sessionModel(info).provider,
				model: record.model || sessionModel(info).modelId,
				usage: record.usage
					? { ...ZERO_USAGE, ...record.usage, cost: record.usage.cost ?? ZERO_USAGE.cost }
					: ZERO_USAGE,
				stopReason: record.stopReason ?? "stop",
				errorMessage: record.errorMessage,
				timestamp,
			};
		case "toolResult":
			return {
				role: "toolResult",
				toolCallId: record.toolCallId,
				toolName: record.toolName ?? "",
				content: record.content,
				details: record.details,
				isError: record.isError ?? false,
				timestamp,
			};
	}
}

function piCompaction(record: CompactionRecord, links: Links): Record<string, unknown> {
	return {
		summary: record.summary,
		firstKeptEntryId: firstKeptId(record, links),
		tokensBefore: record.tokensBefore,
		details: { readFiles: record.readFiles, modifiedFiles: record.modifiedFiles },
	};
}

/** The entry id of a compaction's first kept record; when that record is not written, the next one on the path. */
function firstKeptId(record: CompactionRecord, links: Links): string {
	const kept = record.firstKeptSeq;
	if (!links.skipped.has(kept)) return piEntryId(kept);
	let seq: number | null = record.seq;
	while (seq !== null) {
		const parent: number | null = links.parents.get(seq) ?? null;
		if (parent === kept) return piEntryId(seq);
		seq = parent;
	}
	return piEntryId(kept);
}

function piBranchSummary(record: BranchSummaryRecord, links: Links): Record<string, unknown> {
	const out: Record<string, unknown> = {
		fromId: links.skipped.has(record.fromSeq) ? "root" : piEntryId(record.fromSeq),
		summary: record.summary,
	};
	if (record.readFiles || record.modifiedFiles) {
		out.details = { readFiles: record.readFiles ?? [], modifiedFiles: record.modifiedFiles ?? [] };
	}
	return out;
}

function piCustom(record: CustomRecord, base: Base): Record<string, unknown> {
	const original = keptPiEntry(record.customType, record.data);
	if (original) return { ...original, ...base, timestamp: stringOr(original.timestamp, base.timestamp) };
	return { type: "custom", ...base, customType: record.customType, data: record.data };
}

function piCustomMessage(record: CustomMessageRecord, base: Base): Record<string, unknown> {
	if (record.customType === PI_BASH_TYPE) {
		const original = keptPiEntry("pi:message", record.details);
		if (original) return { ...original, ...base, timestamp: stringOr(original.timestamp, base.timestamp) };
	}
	return {
		type: "custom_message",
		...base,
		customType: record.customType,
		content: record.content,
		display: record.display,
		details: record.details,
	};
}

/** A pi entry an import kept whole (customType "pi:<its type>"), to be written back as it was. */
function keptPiEntry(customType: string, data: unknown): Record<string, unknown> | undefined {
	if (!customType.startsWith(PI_PREFIX) || !isObject(data) || typeof data.type !== "string") return undefined;
	const type = customType.slice(PI_PREFIX.length);
	if (type === "session") return undefined;
	const isBash = type === "bashExecution" && data.type === "message";
	return data.type === type || isBash ? data : undefined;
}

/** The cwd an import kept in its first record (Codex session_meta, Claude Code envelope), if any. */
function importedCwd(record: StoredRecord): string | undefined {
	if (record.recordType !== "custom" || !isObject(record.data)) return undefined;
	return typeof record.data.cwd === "string" ? record.data.cwd : undefined;
}

function isImportedPiHeader(record: StoredRecord): record is CustomRecord {
	return record.recordType === "custom" && record.customType === PI_HEADER_TYPE;
}

function headerLine(info: ExportInfo, options: PiExportOptions, cwd: string | undefined): string {
	const header = {
		type: "session",
		version: 3,
		id: options.piSessionId ?? piSessionIdOf(info.id),
		timestamp: info.createdAt,
		cwd: cwd ?? process.cwd(),
	};
	return `${JSON.stringify(header)}\n`;
}

/** The session's "provider/model-id" split; "unknown" for what it does not say. */
function sessionModel(info: ExportInfo): { provider: string; modelId: string } {
	const model = info.model ?? "";
	const slash = model.indexOf("/");
	const provider = slash > 0 ? model.slice(0, slash) : "";
	const modelId = slash > 0 ? model.slice(slash + 1) : model;
	return { provider: provider || "unknown", modelId: modelId || "unknown" };
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A pi session id (a UUID) derived from our session id, so every export of a session carries the
 * same one: the 128 bits of the ULID, marked as a version 8 (custom) UUID. Ids that are not
 * ULIDs are hashed into the bits instead.
 */
export function piSessionIdOf(sessionId: string): string {
	let bits = 0n;
	const upper = sessionId.toUpperCase();
	if (/^[0-9A-HJKMNP-TV-Z]{26}$/.test(upper)) {
		for (const char of upper) bits = (bits << 5n) | BigInt(CROCKFORD.indexOf(char));
	} else {
		for (const char of sessionId) bits = ((bits * 131n) ^ BigInt(char.codePointAt(0) ?? 0)) & ((1n << 128n) - 1n);
	}
	let hex = (bits & ((1n << 128n) - 1n)).toString(16).padStart(32, "0");
	hex = `${hex.slice(0, 12)}8${hex.slice(13, 16)}${((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17)}`;
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function stringOr(value: unknown, fallback: string): string {
	return typeof value === "string" ? value : fallback;
}
