import { z } from "zod";
import { contentSchema, imageBlockSchema, textBlockSchema } from "./content.js";

/** The schema version this library writes. Lines with a higher version are kept opaque. */
export const CURRENT_SCHEMA_VERSION = 1;

const seqSchema = z.number().int().min(1);

/** Fields every record carries. `parentSeq` is the tree extension (see docs/session-format.md). */
const baseFields = {
	schemaVersion: z.number().int().min(0),
	seq: seqSchema,
	timestamp: z.string().min(1),
	/** Absent: the parent is the record with seq - 1. A number: an earlier seq. null: a new root. */
	parentSeq: seqSchema.nullable().optional(),
};

export const usageSchema = z.object({
	input: z.number(),
	output: z.number(),
	cacheRead: z.number().default(0),
	cacheWrite: z.number().default(0),
	totalTokens: z.number(),
	cost: z
		.object({
			input: z.number().default(0),
			output: z.number().default(0),
			cacheRead: z.number().default(0),
			cacheWrite: z.number().default(0),
			total: z.number().default(0),
		})
		.optional(),
});

export const stopReasonSchema = z.enum(["stop", "length", "toolUse", "error", "aborted"]);
export const messageRoleSchema = z.enum(["user", "assistant", "toolResult"]);

export const messageRecordSchema = z.object({
	recordType: z.literal("message"),
	...baseFields,
	role: messageRoleSchema,
	content: contentSchema,
	/** toolResult: the id of the tool call this answers. */
	toolCallId: z.string().min(1).optional(),
	/** toolResult: the name of the tool that ran. */
	toolName: z.string().optional(),
	/** toolResult: whether the tool failed. */
	isError: z.boolean().optional(),
	/** toolResult: structured details for UIs; never sent to the LLM. */
	details: z.unknown().optional(),
	/** assistant metadata */
	api: z.string().optional(),
	provider: z.string().optional(),
	model: z.string().optional(),
	usage: usageSchema.optional(),
	stopReason: stopReasonSchema.optional(),
	errorMessage: z.string().optional(),
});

export const compactionTriggerSchema = z.enum(["threshold", "overflow", "manual"]);

export const compactionRecordSchema = z.object({
	recordType: z.literal("compaction"),
	...baseFields,
	/** Messages with seq < this on the compaction's path are superseded by the summary. */
	firstKeptSeq: seqSchema,
	summary: z.string(),
	/** Estimated tokens of the messages that were summarized (spec §7.2, §7.5.3). */
	tokensBefore: z.number().int().min(0),
	/** Estimated tokens of the context right after compaction. */
	tokensAfter: z.number().int().min(0).optional(),
	readFiles: z.array(z.string()),
	modifiedFiles: z.array(z.string()),
	trigger: compactionTriggerSchema.optional(),
});

export const modelChangeRecordSchema = z.object({
	recordType: z.literal("model_change"),
	...baseFields,
	provider: z.string().min(1),
	modelId: z.string().min(1),
});

export const thinkingLevelChangeRecordSchema = z.object({
	recordType: z.literal("thinking_level_change"),
	...baseFields,
	thinkingLevel: z.string().min(1),
});

export const sessionInfoRecordSchema = z.object({
	recordType: z.literal("session_info"),
	...baseFields,
	name: z.string().optional(),
});

export const labelRecordSchema = z.object({
	recordType: z.literal("label"),
	...baseFields,
	targetSeq: seqSchema,
	/** Absent or empty clears the label of targetSeq. */
	label: z.string().optional(),
});

export const branchSummaryRecordSchema = z.object({
	recordType: z.literal("branch_summary"),
	...baseFields,
	/** The leaf of the branch that was left. */
	fromSeq: seqSchema,
	summary: z.string(),
	readFiles: z.array(z.string()).optional(),
	modifiedFiles: z.array(z.string()).optional(),
});

export const customRecordSchema = z.object({
	recordType: z.literal("custom"),
	...baseFields,
	customType: z.string().min(1),
	data: z.unknown().optional(),
});

export const customMessageRecordSchema = z.object({
	recordType: z.literal("custom_message"),
	...baseFields,
	customType: z.string().min(1),
	content: z.array(z.discriminatedUnion("type", [textBlockSchema, imageBlockSchema])),
	/** Whether UIs show it; it is sent to the LLM either way. */
	display: z.boolean().default(true),
	details: z.unknown().optional(),
});

export const sessionRecordSchema = z.discriminatedUnion("recordType", [
	messageRecordSchema,
	compactionRecordSchema,
	modelChangeRecordSchema,
	thinkingLevelChangeRecordSchema,
	sessionInfoRecordSchema,
	labelRecordSchema,
	branchSummaryRecordSchema,
	customRecordSchema,
	customMessageRecordSchema,
]);

export type Usage = z.infer<typeof usageSchema>;
export type StopReason = z.infer<typeof stopReasonSchema>;
export type MessageRecord = z.infer<typeof messageRecordSchema>;
export type CompactionRecord = z.infer<typeof compactionRecordSchema>;
export type CompactionTrigger = z.infer<typeof compactionTriggerSchema>;
export type ModelChangeRecord = z.infer<typeof modelChangeRecordSchema>;
export type ThinkingLevelChangeRecord = z.infer<typeof thinkingLevelChangeRecordSchema>;
export type SessionInfoRecord = z.infer<typeof sessionInfoRecordSchema>;
export type LabelRecord = z.infer<typeof labelRecordSchema>;
export type BranchSummaryRecord = z.infer<typeof branchSummaryRecordSchema>;
export type CustomRecord = z.infer<typeof customRecordSchema>;
export type CustomMessageRecord = z.infer<typeof customMessageRecordSchema>;
export type SessionRecord = z.infer<typeof sessionRecordSchema>;
export type RecordType = SessionRecord["recordType"];
export type MessageRole = MessageRecord["role"];

export const RECORD_TYPES: readonly RecordType[] = [
	"message",
	"compaction",
	"model_change",
	"thinking_level_change",
	"session_info",
	"label",
	"branch_summary",
	"custom",
	"custom_message",
];

/**
 * A line this library does not understand (a newer schemaVersion, or an unknown recordType)
 * but that still has a valid seq. It keeps its place in the tree, contributes nothing to the
 * context, and is written back unchanged (`original`) when a session is forked or exported.
 */
export interface OpaqueRecord {
	recordType: "opaque";
	seq: number;
	parentSeq?: number | null;
	schemaVersion: number;
	timestamp: string;
	/** The recordType the line declared. */
	declaredType: string;
	/** Why it is opaque. */
	reason: string;
	/** The line's object exactly as parsed. */
	original: Record<string, unknown>;
	/**
	 * The line's exact text (without its newline), when it was read from a line: serializeRecord
	 * writes it back byte for byte unless seq or parentSeq were changed (as a fork renumbers).
	 */
	line?: string;
}

/** Anything a session log yields: a known record, or an opaque one. */
export type StoredRecord = SessionRecord | OpaqueRecord;

export function isOpaque(record: StoredRecord): record is OpaqueRecord {
	return record.recordType === "opaque";
}

/** The seq of the parent of `record` per the tree rule: absent parentSeq means seq - 1. */
export function parentSeqOf(record: { seq: number; parentSeq?: number | null | undefined }): number | null {
	if (record.parentSeq === undefined) return record.seq > 1 ? record.seq - 1 : null;
	return record.parentSeq;
}

/** A record as a caller hands it to a store: seq, schemaVersion and timestamp are filled in there. */
export type RecordInput = DistributiveOmit<SessionRecord, "seq" | "schemaVersion" | "timestamp"> & {
	seq?: number;
	schemaVersion?: number;
	timestamp?: string;
};

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
