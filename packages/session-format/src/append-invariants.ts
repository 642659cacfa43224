import { describeValue } from "./describe.js";
import { FIELD_LIMITS } from "./limits.js";
import type { SessionRecord } from "./records.js";

/** A rule an appended record breaks: the field path and what is wrong. */
export interface InvariantViolation {
	path: string;
	message: string;
}

/**
 * The rules an appended record must follow beyond its schema, which readers do not enforce (old
 * logs read as before): a tool result names its call, its tool and whether it failed (spec §7.2);
 * a compaction keeps from a record at or before itself; a leaf move names its leaf; identifier-like
 * strings stay within FIELD_LIMITS. Returns the first violation, or undefined.
 */
export function appendViolation(record: SessionRecord): InvariantViolation | undefined {
	switch (record.recordType) {
		case "message":
			return messageViolation(record) ?? blocksViolation(record.content);
		case "compaction":
			if (record.firstKeptSeq > record.seq) {
				return {
					path: "firstKeptSeq",
					message: `firstKeptSeq ${record.firstKeptSeq} is after the compaction itself (seq ${record.seq}); it must name a record on the path at or before it`,
				};
			}
			return undefined;
		case "model_change":
			return (
				tooLong("provider", record.provider, FIELD_LIMITS.name) ?? tooLong("modelId", record.modelId, FIELD_LIMITS.name)
			);
		case "thinking_level_change":
			return tooLong("thinkingLevel", record.thinkingLevel, FIELD_LIMITS.name);
		case "session_info":
			return tooLong("name", record.name, FIELD_LIMITS.title);
		case "label":
			return tooLong("label", record.label, FIELD_LIMITS.title);
		case "custom":
			return tooLong("customType", record.customType, FIELD_LIMITS.name);
		case "custom_message":
			return tooLong("customType", record.customType, FIELD_LIMITS.name) ?? blocksViolation(record.content);
		case "leaf_change":
			if (record.parentSeq === undefined) {
				return {
					path: "parentSeq",
					message: "a leaf_change must give parentSeq: the seq of the new active leaf (null to start a new root)",
				};
			}
			return undefined;
		case "turn":
			return tooLong("turnId", record.turnId, FIELD_LIMITS.id) ?? tooLong("model", record.model, FIELD_LIMITS.name * 2);
		default:
			return undefined;
	}
}

function messageViolation(record: Extract<SessionRecord, { recordType: "message" }>): InvariantViolation | undefined {
	if (record.role === "toolResult") {
		if (!record.toolCallId) {
			return {
				path: "toolCallId",
				message: "a toolResult message must give toolCallId: the id of the tool call it answers",
			};
		}
		if (!record.toolName) {
			return { path: "toolName", message: "a toolResult message must give toolName: the name of the tool that ran" };
		}
		if (typeof record.isError !== "boolean") {
			return {
				path: "isError",
				message: "a toolResult message must give isError: true when the tool failed, else false",
			};
		}
	}
	return (
		tooLong("toolCallId", record.toolCallId, FIELD_LIMITS.id) ??
		tooLong("toolName", record.toolName, FIELD_LIMITS.name) ??
		tooLong("api", record.api, FIELD_LIMITS.name) ??
		tooLong("provider", record.provider, FIELD_LIMITS.name) ??
		tooLong("model", record.model, FIELD_LIMITS.name)
	);
}

function blocksViolation(
	content: ReadonlyArray<{ type: string; mimeType?: string; id?: string; name?: string }>,
): InvariantViolation | undefined {
	for (let i = 0; i < content.length; i++) {
		const block = content[i] as { type: string; mimeType?: string; id?: string; name?: string };
		const at = `content.${i}`;
		const violation =
			block.type === "image"
				? tooLong(`${at}.mimeType`, block.mimeType, FIELD_LIMITS.mimeType)
				: block.type === "toolCall"
					? (tooLong(`${at}.id`, block.id, FIELD_LIMITS.id) ?? tooLong(`${at}.name`, block.name, FIELD_LIMITS.name))
					: undefined;
		if (violation) return violation;
	}
	return undefined;
}

function tooLong(path: string, value: string | undefined, max: number): InvariantViolation | undefined {
	if (value === undefined || value.length <= max) return undefined;
	return {
		path,
		message: `${path} is ${value.length} characters long (${describeValue(value)}); at most ${max} are allowed`,
	};
}
