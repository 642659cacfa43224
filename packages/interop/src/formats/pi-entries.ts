import type { RecordInput } from "@agent/session-format";
import { piContent, USER_BLOCKS } from "../content.js";
import { isObject, numberField, stringField } from "../json-lines.js";
import type { RecordList } from "../record-list.js";
import type { Warnings } from "../warnings.js";
import { mapPiMessage, PI_BASH_TYPE, PI_PREFIX } from "./pi-messages.js";

/** What mapping one entry needs to know about the others. */
export interface PiEntryContext {
	list: RecordList;
	warnings: Warnings;
	/** The seq of an entry already mapped, by its pi id. */
	seqOf(id: string): number | undefined;
	/** The seq of the header record: the root our tree hangs from. */
	headerSeq: number;
	/** v1 only: the seq of the entry at an index of the file's parsed lines (header included). */
	seqAtIndex?(index: number): number | undefined;
	/** Records chained in after an entry (its extension details): the entry's children attach below them. */
	continueAt: Map<number, number>;
}

const COMPACTION_DETAIL_KEYS = new Set(["readFiles", "modifiedFiles"]);

/** Maps one pi entry (any version, ids already resolved to `parent`) to records; returns the entry's seq. */
export function mapPiEntry(entry: Record<string, unknown>, parent: number, line: number, ctx: PiEntryContext): number {
	const { list, warnings } = ctx;
	const timestamp = stringField(entry, "timestamp");
	const keep = (reason: string, customType = `${PI_PREFIX}${String(entry.type)}`): number => {
		if (reason) warnings.add(`${reason}; kept as a custom record (${customType}), not sent to the LLM`, line);
		return list.add(stamp({ recordType: "custom", customType, data: entry }, timestamp), parent, line);
	};
	switch (entry.type) {
		case "message": {
			const mapped = mapPiMessage(entry.message, entry);
			if ("keep" in mapped) {
				const isBash = isObject(entry.message) && entry.message.role === "bashExecution";
				return keep(mapped.keep, isBash ? PI_BASH_TYPE : undefined);
			}
			if (mapped.droppedFields) {
				warnings.add(`message fields without an equivalent were not kept: ${mapped.droppedFields.join(", ")}`, line);
			}
			return list.add(stamp(mapped.record, timestamp), parent, line);
		}
		case "model_change": {
			const provider = stringField(entry, "provider");
			const modelId = stringField(entry, "modelId");
			if (!provider || !modelId) return keep("a model_change without provider and modelId");
			return list.add(stamp({ recordType: "model_change", provider, modelId }, timestamp), parent, line);
		}
		case "thinking_level_change": {
			const thinkingLevel = stringField(entry, "thinkingLevel");
			if (!thinkingLevel) return keep("a thinking_level_change without a thinkingLevel");
			return list.add(stamp({ recordType: "thinking_level_change", thinkingLevel }, timestamp), parent, line);
		}
		case "session_info": {
			const record: RecordInput = { recordType: "session_info" };
			const name = stringField(entry, "name");
			if (name !== undefined) record.name = name;
			return list.add(stamp(record, timestamp), parent, line);
		}
		case "label": {
			const targetId = stringField(entry, "targetId");
			const targetSeq = targetId === undefined ? undefined : ctx.seqOf(targetId);
			if (targetSeq === undefined) return keep("a label whose target entry is not in the file");
			const record: RecordInput = { recordType: "label", targetSeq };
			const label = stringField(entry, "label");
			if (label !== undefined) record.label = label;
			return list.add(stamp(record, timestamp), parent, line);
		}
		case "custom": {
			const customType = stringField(entry, "customType");
			if (!customType) return keep("a custom entry without a customType");
			return list.custom(customType, entry.data, parent, timestamp);
		}
		case "custom_message": {
			const customType = stringField(entry, "customType");
			const content = piContent(entry.content, USER_BLOCKS);
			if (!customType || !content) return keep("a custom_message without a customType or valid content");
			const record: RecordInput = {
				recordType: "custom_message",
				customType,
				content: content as Extract<RecordInput, { recordType: "custom_message" }>["content"],
				display: entry.display !== false,
			};
			if (entry.details !== undefined) record.details = entry.details;
			return list.add(stamp(record, timestamp), parent, line);
		}
		case "compaction":
			return mapCompaction(entry, parent, line, ctx, keep);
		case "branch_summary":
			return mapBranchSummary(entry, parent, line, ctx, keep);
		default:
			return keep(`an entry of type ${JSON.stringify(entry.type)}, which has no equivalent`);
	}
}

function mapCompaction(
	entry: Record<string, unknown>,
	parent: number,
	line: number,
	ctx: PiEntryContext,
	keep: (reason: string) => number,
): number {
	const summary = stringField(entry, "summary");
	if (summary === undefined) return keep("a compaction without a summary");
	const seq = ctx.list.nextSeq;
	let firstKeptSeq: number | undefined;
	const firstKeptId = stringField(entry, "firstKeptEntryId");
	const firstKeptIndex = numberField(entry, "firstKeptEntryIndex");
	if (firstKeptId !== undefined) firstKeptSeq = ctx.seqOf(firstKeptId);
	else if (firstKeptIndex !== undefined && ctx.seqAtIndex) firstKeptSeq = ctx.seqAtIndex(firstKeptIndex);
	if (firstKeptSeq === undefined) {
		// pi keeps nothing from before a compaction whose first kept entry it cannot find; so do we.
		ctx.warnings.add("a compaction's first kept entry is not in the file; nothing before it is kept, as in pi", line);
		firstKeptSeq = seq;
	} else if (!ctx.list.isAncestor(firstKeptSeq, parent)) {
		ctx.warnings.add("a compaction's first kept entry is not on its path; nothing before it is kept, as in pi", line);
		firstKeptSeq = seq;
	}
	const details = isObject(entry.details) ? entry.details : {};
	const record: RecordInput = {
		recordType: "compaction",
		summary,
		firstKeptSeq,
		tokensBefore: Math.max(0, Math.round(numberField(entry, "tokensBefore") ?? 0)),
		readFiles: stringArray(details.readFiles),
		modifiedFiles: stringArray(details.modifiedFiles),
	};
	const compactionSeq = ctx.list.add(stamp(record, stringField(entry, "timestamp")), parent, line);
	keepExtras(entry, details, COMPACTION_DETAIL_KEYS, compactionSeq, ctx);
	return compactionSeq;
}

function mapBranchSummary(
	entry: Record<string, unknown>,
	parent: number,
	line: number,
	ctx: PiEntryContext,
	keep: (reason: string) => number,
): number {
	const summary = stringField(entry, "summary");
	// pi leaves a branch summary with an empty summary out of the context: so must we.
	if (!summary) return keep("a branch_summary with an empty summary (pi sends it nowhere)");
	const fromId = stringField(entry, "fromId");
	let fromSeq = fromId === undefined ? undefined : ctx.seqOf(fromId);
	if (fromSeq === undefined) {
		if (fromId !== "root")
			ctx.warnings.add("a branch_summary's fromId is not in the file; it points at the root", line);
		fromSeq = ctx.headerSeq;
	}
	const details = isObject(entry.details) ? entry.details : {};
	const record: RecordInput = { recordType: "branch_summary", summary, fromSeq };
	if (Array.isArray(details.readFiles)) record.readFiles = stringArray(details.readFiles);
	if (Array.isArray(details.modifiedFiles)) record.modifiedFiles = stringArray(details.modifiedFiles);
	const seq = ctx.list.add(stamp(record, stringField(entry, "timestamp")), parent, line);
	keepExtras(entry, details, COMPACTION_DETAIL_KEYS, seq, ctx);
	return seq;
}

/**
 * Extension details and fromHook have no field of ours: kept in a custom record chained in after
 * the record (its children continue below it, so it adds no branch); the pi export writes them
 * back into the entry.
 */
function keepExtras(
	entry: Record<string, unknown>,
	details: Record<string, unknown>,
	known: ReadonlySet<string>,
	seq: number,
	ctx: PiEntryContext,
): void {
	const extraDetails = Object.keys(details).filter((key) => !known.has(key));
	const notDetailsObject = entry.details !== undefined && !isObject(entry.details);
	if (extraDetails.length === 0 && entry.fromHook === undefined && !notDetailsObject) return;
	const customType = `${PI_PREFIX}${String(entry.type)}-extras`;
	const kept = ctx.list.custom(
		customType,
		{ details: entry.details, fromHook: entry.fromHook },
		seq,
		stringField(entry, "timestamp"),
	);
	ctx.continueAt.set(seq, kept);
}

function stringArray(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function stamp(record: RecordInput, timestamp: string | undefined): RecordInput {
	if (timestamp !== undefined && timestamp.length > 0) record.timestamp = timestamp;
	return record;
}
