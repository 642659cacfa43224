import { describeValue } from "./describe.js";
import type { SessionRecord } from "./records.js";
import { BLOCK_NAME_FIELDS, findLoneSurrogate, nameTextProblem, RECORD_NAME_FIELDS } from "./text-rules.js";

/** A rule an appended record breaks: the field path and what is wrong. */
export interface InvariantViolation {
	path: string;
	message: string;
}

/**
 * The rules an appended record must follow beyond its schema, which readers do not enforce (old
 * logs read as before): a tool result names its call, its tool and whether it failed (spec §7.2);
 * a compaction keeps from a record at or before itself; a leaf move names its leaf; names
 * (identifier-like strings) stay within FIELD_LIMITS and hold no U+0000; no string anywhere holds
 * a lone surrogate (text-rules.ts). Returns the first violation, or undefined.
 */
export function appendViolation(record: SessionRecord): InvariantViolation | undefined {
	const violation = structureViolation(record) ?? namesViolation(record);
	if (violation) return violation;
	const lone = findLoneSurrogate(record);
	return lone ? { path: lone.path, message: `${lone.path} ${lone.problem}` } : undefined;
}

function structureViolation(record: SessionRecord): InvariantViolation | undefined {
	switch (record.recordType) {
		case "message":
			return messageViolation(record);
		case "compaction":
			if (record.firstKeptSeq > record.seq) {
				return {
					path: "firstKeptSeq",
					message: `firstKeptSeq ${record.firstKeptSeq} is after the compaction itself (seq ${record.seq}); it must name a record on the path at or before it`,
				};
			}
			return undefined;
		case "leaf_change":
			if (record.parentSeq === undefined) {
				return {
					path: "parentSeq",
					message: "a leaf_change must give parentSeq: the seq of the new active leaf (null to start a new root)",
				};
			}
			return undefined;
		default:
			return undefined;
	}
}

/** The record's name fields and those of its content blocks: length and U+0000 (RECORD_NAME_FIELDS). */
function namesViolation(record: SessionRecord): InvariantViolation | undefined {
	const fields = record as unknown as Record<string, unknown>;
	for (const [key, max] of RECORD_NAME_FIELDS[record.recordType] ?? []) {
		const violation = nameViolation(key, fields[key], max);
		if (violation) return violation;
	}
	const content = fields.content;
	if (!Array.isArray(content)) return undefined;
	for (let i = 0; i < content.length; i++) {
		const block = content[i] as Record<string, unknown>;
		for (const [key, max] of BLOCK_NAME_FIELDS[String(block.type)] ?? []) {
			const violation = nameViolation(`content.${i}.${key}`, block[key], max);
			if (violation) return violation;
		}
	}
	return undefined;
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
	return undefined;
}

function nameViolation(path: string, value: unknown, max: number): InvariantViolation | undefined {
	if (typeof value !== "string") return undefined;
	if (value.length > max) {
		return {
			path,
			message: `${path} is ${value.length} characters long (${describeValue(value)}); at most ${max} are allowed`,
		};
	}
	const problem = nameTextProblem(value);
	return problem === undefined ? undefined : { path, message: `${path} ${problem}` };
}
