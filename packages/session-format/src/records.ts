import * as z from "zod";
import {
	type ContentBlock,
	contentSchema,
	type ImageBlock,
	imageBlockSchema,
	type TextBlock,
	textBlockSchema,
} from "./content.js";
import { lazySchema } from "./lazy-schema.js";
import { COMPACTION_TRIGGERS, MESSAGE_ROLES, STOP_REASONS, TURN_OUTCOMES } from "./record-kinds.js";

/**
 * The schemas below are built on first use (lazySchema): reading checks the hot record types by
 * hand (fast-record.ts) and asks them only about the rest.
 */

const seqSchema = lazySchema(() => z.number().int().min(1));

/**
 * The facts a session was created with, carried by the first record written to its log (the
 * store adds it; callers never pass it), so that metadata.json is a cache of the log and nothing
 * else. A log written before this header existed has none; its facts come from metadata.json.
 */
export const sessionHeaderSchema = lazySchema(() =>
	z.object({
		createdAt: z.string().min(1),
		name: z.string().optional(),
		/** "provider/model-id": the model the session was created for (the context's default). */
		model: z.string().optional(),
		source: z.enum(["interactive", "cron"]).optional(),
		cronJobId: z.string().optional(),
		systemPromptOverride: z.string().optional(),
		identityKey: z.string().optional(),
		/** The working directory the session belongs to (a project). */
		cwd: z.string().optional(),
		/** The user that created the session (a server's authenticated user). */
		createdBy: z.string().optional(),
		importedFrom: z.object({ format: z.string(), sourceId: z.string() }).optional(),
		forkedFrom: z.object({ sessionId: z.string(), seq: z.number().int().min(0) }).optional(),
		/** Active time the session starts with (an import keeps its source's); uptime and turn records add to it. */
		uptimeSeconds: z.number().finite().min(0).optional(),
	}),
);

/** Fields every record carries. `parentSeq` is the tree extension (see docs/session-format.md). */
function baseFields() {
	return {
		schemaVersion: z.number().int().min(0),
		seq: seqSchema,
		timestamp: z.string().min(1),
		/** Absent: the parent is the record with seq - 1. A number: an earlier seq. null: a new root. */
		parentSeq: seqSchema.nullable().optional(),
		/** Only on the first record of a log: the session's creation facts. */
		session: sessionHeaderSchema.optional(),
	};
}

export const usageSchema = lazySchema(() =>
	z.object({
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
	}),
);

export const stopReasonSchema = /* @__PURE__ */ z.enum(STOP_REASONS);
export const messageRoleSchema = /* @__PURE__ */ z.enum(MESSAGE_ROLES);

export const messageRecordSchema = lazySchema(() =>
	z.object({
		recordType: z.literal("message"),
		...baseFields(),
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
	}),
);

export const compactionTriggerSchema = /* @__PURE__ */ z.enum(COMPACTION_TRIGGERS);

export const pathSettingsSchema = lazySchema(() =>
	z.object({
		model: z.object({ provider: z.string().min(1), modelId: z.string().min(1) }).optional(),
		thinkingLevel: z.string().min(1).optional(),
	}),
);

export const compactionRecordSchema = lazySchema(() =>
	z.object({
		recordType: z.literal("compaction"),
		...baseFields(),
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
		/**
		 * The model and thinking level in force on the compaction's path where it was written (the
		 * store fills it), so a resume that reads only from the compaction on knows them.
		 */
		pathSettings: pathSettingsSchema.optional(),
	}),
);

export const modelChangeRecordSchema = lazySchema(() =>
	z.object({
		recordType: z.literal("model_change"),
		...baseFields(),
		provider: z.string().min(1),
		modelId: z.string().min(1),
	}),
);

export const thinkingLevelChangeRecordSchema = lazySchema(() =>
	z.object({
		recordType: z.literal("thinking_level_change"),
		...baseFields(),
		thinkingLevel: z.string().min(1),
	}),
);

export const sessionInfoRecordSchema = lazySchema(() =>
	z.object({
		recordType: z.literal("session_info"),
		...baseFields(),
		name: z.string().optional(),
	}),
);

export const labelRecordSchema = lazySchema(() =>
	z.object({
		recordType: z.literal("label"),
		...baseFields(),
		targetSeq: seqSchema,
		/** Absent or empty clears the label of targetSeq. */
		label: z.string().optional(),
	}),
);

export const branchSummaryRecordSchema = lazySchema(() =>
	z.object({
		recordType: z.literal("branch_summary"),
		...baseFields(),
		/** The leaf of the branch that was left. */
		fromSeq: seqSchema,
		summary: z.string(),
		readFiles: z.array(z.string()).optional(),
		modifiedFiles: z.array(z.string()).optional(),
	}),
);

export const customRecordSchema = lazySchema(() =>
	z.object({
		recordType: z.literal("custom"),
		...baseFields(),
		customType: z.string().min(1),
		data: z.unknown().optional(),
	}),
);

export const customMessageRecordSchema = lazySchema(() =>
	z.object({
		recordType: z.literal("custom_message"),
		...baseFields(),
		customType: z.string().min(1),
		content: z.array(z.discriminatedUnion("type", [textBlockSchema, imageBlockSchema])),
		/** Whether UIs show it; it is sent to the LLM either way. */
		display: z.boolean().default(true),
		details: z.unknown().optional(),
	}),
);

/** "branch" moved the active leaf: its parentSeq is the new leaf (null: the next record starts a new root). */
export const leafChangeRecordSchema = lazySchema(() =>
	z.object({
		recordType: z.literal("leaf_change"),
		...baseFields(),
	}),
);

/** The session was archived (hidden from the default listing) or brought back. */
export const archiveChangeRecordSchema = lazySchema(() =>
	z.object({
		recordType: z.literal("archive_change"),
		...baseFields(),
		archived: z.boolean(),
	}),
);

/** Active time added to the session (rfc-0064 uptime), by a caller that tracks it itself. */
export const uptimeRecordSchema = lazySchema(() =>
	z.object({
		recordType: z.literal("uptime"),
		...baseFields(),
		seconds: z.number().finite().min(0),
	}),
);

export const turnOutcomeSchema = /* @__PURE__ */ z.enum(TURN_OUTCOMES);

/** One finished turn: its outcome, duration (counted as uptime), model and usage. */
export const turnRecordSchema = lazySchema(() =>
	z.object({
		recordType: z.literal("turn"),
		...baseFields(),
		turnId: z.string().min(1),
		outcome: turnOutcomeSchema,
		startedAt: z.string().min(1),
		durationMs: z.number().finite().min(0),
		model: z.string().optional(),
		usage: usageSchema.optional(),
		error: z.object({ code: z.string(), message: z.string() }).optional(),
		/** The records the turn wrote. */
		firstSeq: seqSchema.optional(),
		lastSeq: seqSchema.optional(),
	}),
);

/**
 * A damaged line acknowledged by `repair`: the log is never rewritten, so the line stays, and
 * verify reports it (and the seq gap and dangling parents it causes) as acknowledged.
 */
export const damageAckRecordSchema = lazySchema(() =>
	z.object({
		recordType: z.literal("damage_ack"),
		...baseFields(),
		/** 1-based line number and byte offset of the damaged line. */
		line: z.number().int().min(1),
		byteOffset: z.number().int().min(0),
		reason: z.string(),
		/** The seqs missing from the log because of the damaged line (it held one of them), when it falls in a gap. */
		seqs: z.object({ from: seqSchema, to: seqSchema }).optional(),
	}),
);

export const sessionRecordSchema = lazySchema(() =>
	z.discriminatedUnion("recordType", [
		messageRecordSchema,
		compactionRecordSchema,
		modelChangeRecordSchema,
		thinkingLevelChangeRecordSchema,
		sessionInfoRecordSchema,
		labelRecordSchema,
		branchSummaryRecordSchema,
		customRecordSchema,
		customMessageRecordSchema,
		leafChangeRecordSchema,
		archiveChangeRecordSchema,
		uptimeRecordSchema,
		turnRecordSchema,
		damageAckRecordSchema,
	]),
);

export interface Usage extends z.infer<typeof usageSchema> {}
export type StopReason = z.infer<typeof stopReasonSchema>;
export interface MessageRecord extends z.infer<typeof messageRecordSchema> {
	content: ContentBlock[];
}
export interface CompactionRecord extends z.infer<typeof compactionRecordSchema> {}
export type CompactionTrigger = z.infer<typeof compactionTriggerSchema>;
export interface ModelChangeRecord extends z.infer<typeof modelChangeRecordSchema> {}
export interface ThinkingLevelChangeRecord extends z.infer<typeof thinkingLevelChangeRecordSchema> {}
export interface SessionInfoRecord extends z.infer<typeof sessionInfoRecordSchema> {}
export interface LabelRecord extends z.infer<typeof labelRecordSchema> {}
export interface BranchSummaryRecord extends z.infer<typeof branchSummaryRecordSchema> {}
export interface CustomRecord extends z.infer<typeof customRecordSchema> {}
export interface CustomMessageRecord extends z.infer<typeof customMessageRecordSchema> {
	content: (TextBlock | ImageBlock)[];
}
export interface LeafChangeRecord extends z.infer<typeof leafChangeRecordSchema> {}
export interface ArchiveChangeRecord extends z.infer<typeof archiveChangeRecordSchema> {}
export interface UptimeRecord extends z.infer<typeof uptimeRecordSchema> {}
export type TurnOutcome = z.infer<typeof turnOutcomeSchema>;
export interface TurnRecord extends z.infer<typeof turnRecordSchema> {}
export interface DamageAckRecord extends z.infer<typeof damageAckRecordSchema> {}
export interface SessionHeader extends z.infer<typeof sessionHeaderSchema> {}
export interface PathSettings extends z.infer<typeof pathSettingsSchema> {}
/** Any record of a log (a named union of the record interfaces, each as its schema infers it). */
export type SessionRecord =
	| MessageRecord
	| CompactionRecord
	| ModelChangeRecord
	| ThinkingLevelChangeRecord
	| SessionInfoRecord
	| LabelRecord
	| BranchSummaryRecord
	| CustomRecord
	| CustomMessageRecord
	| LeafChangeRecord
	| ArchiveChangeRecord
	| UptimeRecord
	| TurnRecord
	| DamageAckRecord;
export type RecordType = SessionRecord["recordType"];
export type MessageRole = MessageRecord["role"];

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

/**
 * A record as a caller hands it to a store: seq, schemaVersion and timestamp are filled in there,
 * and the session header is the store's to add.
 */
export type RecordInput = DistributiveOmit<SessionRecord, "seq" | "schemaVersion" | "timestamp" | "session"> & {
	seq?: number;
	schemaVersion?: number;
	timestamp?: string;
};

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
