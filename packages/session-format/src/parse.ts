import type { z } from "zod";
import { InvalidRecordError } from "./errors.js";
import { migrateRecord } from "./migrate.js";
import {
	CURRENT_SCHEMA_VERSION,
	type OpaqueRecord,
	RECORD_TYPES,
	type RecordInput,
	type SessionRecord,
	type StoredRecord,
	sessionRecordSchema,
} from "./records.js";

/** Why a line could not be read as a record. */
export type LineProblemCode =
	| "INVALID_JSON"
	| "NOT_AN_OBJECT"
	| "MISSING_RECORD_TYPE"
	| "INVALID_SEQ"
	| "BARE_STRING_CONTENT"
	| "SCHEMA_VIOLATION";

export interface LineProblem {
	code: LineProblemCode;
	/** One sentence that says what is wrong. */
	message: string;
	/** The field path of a schema violation, e.g. `content.0.text`. */
	path?: string;
}

export type ParsedLine =
	| {
			ok: true;
			record: StoredRecord;
			/** Set when the record was upgraded from an older schemaVersion in memory. */
			migratedFrom?: number;
	  }
	| { ok: false; problem: LineProblem };

const KNOWN_TYPES = new Set<string>(RECORD_TYPES);

/** Parses one line of a session log (without its newline) into a record, or says precisely why not. */
export function parseRecordLine(line: string): ParsedLine {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch (error) {
		return fail("INVALID_JSON", `not valid JSON (${(error as Error).message})`);
	}
	return parseRecordValue(value);
}

/** Like parseRecordLine, for a value that is already parsed JSON. */
export function parseRecordValue(value: unknown): ParsedLine {
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		return fail("NOT_AN_OBJECT", `a record must be a JSON object, got ${describe(value)}`);
	}
	const object = value as Record<string, unknown>;
	const recordType = object.recordType;
	if (typeof recordType !== "string" || recordType.length === 0) {
		return fail("MISSING_RECORD_TYPE", "the record has no recordType string");
	}
	const version = object.schemaVersion ?? 0;
	if (typeof version !== "number" || !Number.isInteger(version) || version < 0) {
		return fail(
			"SCHEMA_VIOLATION",
			`schemaVersion must be a non-negative integer, got ${describe(version)}`,
			"schemaVersion",
		);
	}
	const seq = object.seq;
	if (typeof seq !== "number" || !Number.isInteger(seq) || seq < 1) {
		return fail("INVALID_SEQ", `seq must be an integer >= 1, got ${describe(seq)}`, "seq");
	}
	if (version > CURRENT_SCHEMA_VERSION) {
		return opaque(object, seq, version, `schemaVersion ${version} is newer than ${CURRENT_SCHEMA_VERSION}`);
	}
	if (!KNOWN_TYPES.has(recordType)) {
		return opaque(object, seq, version, `unknown recordType ${JSON.stringify(recordType)}`);
	}
	if (typeof object.parentSeq === "number" && object.parentSeq >= seq) {
		return fail("SCHEMA_VIOLATION", `parentSeq ${object.parentSeq} must be an earlier seq than ${seq}`, "parentSeq");
	}
	const upgraded = version < CURRENT_SCHEMA_VERSION ? migrateRecord(object, version) : object;
	if (typeof upgraded.content === "string") {
		return fail(
			"BARE_STRING_CONTENT",
			'content must be an array of content blocks such as [{"type":"text","text":"..."}], not a bare string (S7.12)',
			"content",
		);
	}
	const result = sessionRecordSchema.safeParse(upgraded);
	if (!result.success) return schemaFailure(result.error);
	return version < CURRENT_SCHEMA_VERSION
		? { ok: true, record: result.data, migratedFrom: version }
		: { ok: true, record: result.data };
}

/** One record as one line of JSON, without the newline. */
export function serializeRecord(record: StoredRecord): string {
	if (record.recordType === "opaque") {
		const out: Record<string, unknown> = { ...record.original, seq: record.seq };
		if (record.parentSeq !== undefined) out.parentSeq = record.parentSeq;
		return JSON.stringify(out);
	}
	return JSON.stringify(record);
}

/** One record as one line of JSON, with its newline: what a store appends. */
export function recordLine(record: StoredRecord): string {
	return `${serializeRecord(record)}\n`;
}

/**
 * Validates a record a caller wants to append. seq, schemaVersion and timestamp may be absent;
 * the returned record has them filled with the given values. Throws InvalidRecordError with the
 * field path and, for batches, the index of the offending record.
 */
export function validateRecordInput(
	input: unknown,
	fill: { seq: number; timestamp: string },
	index?: number,
): SessionRecord {
	const where = index === undefined ? "" : ` (record ${index + 1} of the batch)`;
	if (typeof input !== "object" || input === null || Array.isArray(input)) {
		throw new InvalidRecordError(
			`@agent/session-format: a record must be a JSON object${where}, got ${describe(input)}`,
			{ index },
		);
	}
	const object = input as Partial<RecordInput> & Record<string, unknown>;
	if (object.schemaVersion !== undefined && object.schemaVersion !== CURRENT_SCHEMA_VERSION) {
		throw new InvalidRecordError(
			`@agent/session-format: schemaVersion ${describe(object.schemaVersion)} cannot be appended${where}; omit it and ${CURRENT_SCHEMA_VERSION} is used`,
			{ path: "schemaVersion", index },
		);
	}
	if (typeof object.recordType !== "string" || !KNOWN_TYPES.has(object.recordType)) {
		throw new InvalidRecordError(
			`@agent/session-format: recordType ${describe(object.recordType)} is not one of ${RECORD_TYPES.join(", ")}${where}`,
			{ path: "recordType", index },
		);
	}
	if (typeof object.content === "string") {
		throw new InvalidRecordError(
			`@agent/session-format: content must be an array of content blocks such as [{"type":"text","text":"..."}], not a bare string (S7.12)${where}`,
			{ path: "content", index },
		);
	}
	if (typeof object.parentSeq === "number" && object.parentSeq >= fill.seq) {
		throw new InvalidRecordError(
			`@agent/session-format: parentSeq ${object.parentSeq} must name an earlier record than the one being written (seq ${fill.seq})${where}`,
			{ path: "parentSeq", index },
		);
	}
	const candidate = {
		...object,
		schemaVersion: CURRENT_SCHEMA_VERSION,
		seq: fill.seq,
		timestamp: object.timestamp ?? fill.timestamp,
	};
	const result = sessionRecordSchema.safeParse(candidate);
	if (!result.success) {
		const issue = result.error.issues[0];
		const path = issue ? issue.path.join(".") : "";
		throw new InvalidRecordError(
			`@agent/session-format: invalid ${object.recordType} record${where}: ${path ? `${path}: ` : ""}${issue?.message ?? "schema violation"}`,
			{ path, index, cause: result.error },
		);
	}
	return result.data;
}

function schemaFailure(error: z.ZodError): ParsedLine {
	const issue = error.issues[0];
	const path = issue ? issue.path.join(".") : "";
	return fail("SCHEMA_VIOLATION", `${path ? `${path}: ` : ""}${issue?.message ?? "schema violation"}`, path);
}

function opaque(object: Record<string, unknown>, seq: number, version: number, reason: string): ParsedLine {
	const parentSeq = object.parentSeq;
	const record: OpaqueRecord = {
		recordType: "opaque",
		seq,
		schemaVersion: version,
		timestamp: typeof object.timestamp === "string" ? object.timestamp : "",
		declaredType: String(object.recordType),
		reason,
		original: object,
	};
	if (parentSeq === null || (typeof parentSeq === "number" && Number.isInteger(parentSeq) && parentSeq >= 1)) {
		record.parentSeq = parentSeq;
	}
	return { ok: true, record };
}

function fail(code: LineProblemCode, message: string, path?: string): ParsedLine {
	return { ok: false, problem: path === undefined ? { code, message } : { code, message, path } };
}

function describe(value: unknown): string {
	if (value === undefined) return "nothing";
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array";
	if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
	if (typeof value === "object") return "an object";
	return String(value);
}
