import type * as z from "zod";
import { clip, describeValue } from "./describe.js";
import { fastRecord } from "./fast-record.js";
import { findExcessiveNesting, MAX_NESTING_DEPTH } from "./limits.js";
import { migrateRecord } from "./migrate.js";
import {
	CURRENT_SCHEMA_VERSION,
	type OpaqueRecord,
	RECORD_TYPES,
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

export const KNOWN_RECORD_TYPES: ReadonlySet<string> = new Set<string>(RECORD_TYPES);

/** Parses one line of a session log (without its newline) into a record, or says precisely why not. Never throws. */
export function parseRecordLine(line: string): ParsedLine {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch (error) {
		return fail("INVALID_JSON", `not valid JSON (${clip(String((error as Error)?.message ?? error))})`);
	}
	// The value is this call's own: records already in the schema's shape are kept, not copied.
	const parsed = parseChecked(value, true);
	// Keep the exact text of a line this library does not understand, so it is written back byte for byte.
	if (parsed.ok && parsed.record.recordType === "opaque") parsed.record.line = line.trim();
	return parsed;
}

/** Like parseRecordLine, for a value that is already parsed JSON. Never throws. */
export function parseRecordValue(value: unknown): ParsedLine {
	return parseChecked(value, false);
}

function parseChecked(value: unknown, reuse: boolean): ParsedLine {
	try {
		return parseObject(value, reuse);
	} catch (error) {
		// Nothing above is expected to throw; this keeps a reader alive whatever a line holds.
		return fail("SCHEMA_VIOLATION", `the record could not be checked (${clip(String((error as Error)?.message))})`);
	}
}

function parseObject(value: unknown, reuse: boolean): ParsedLine {
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		return fail("NOT_AN_OBJECT", `a record must be a JSON object, got ${describeValue(value)}`);
	}
	const object = value as Record<string, unknown>;
	const recordType = object.recordType;
	if (typeof recordType !== "string" || recordType.length === 0) {
		return fail("MISSING_RECORD_TYPE", "the record has no recordType string");
	}
	const version = object.schemaVersion === undefined ? 0 : object.schemaVersion;
	if (typeof version !== "number" || !Number.isInteger(version) || version < 0) {
		return fail(
			"SCHEMA_VIOLATION",
			`schemaVersion must be a non-negative integer, got ${describeValue(version)}`,
			"schemaVersion",
		);
	}
	const seq = object.seq;
	if (typeof seq !== "number" || !Number.isInteger(seq) || seq < 1) {
		return fail("INVALID_SEQ", `seq must be an integer >= 1, got ${describeValue(seq)}`, "seq");
	}
	// The tree rule holds for every line, understood or not: a parent is always an earlier record.
	const parentSeq = object.parentSeq;
	if (parentSeq !== undefined && parentSeq !== null) {
		if (typeof parentSeq !== "number" || !Number.isInteger(parentSeq) || parentSeq < 1) {
			return fail(
				"SCHEMA_VIOLATION",
				`parentSeq must be null or an integer >= 1, got ${describeValue(parentSeq)}`,
				"parentSeq",
			);
		}
		if (parentSeq >= seq) {
			return fail("SCHEMA_VIOLATION", `parentSeq ${parentSeq} must be an earlier seq than ${seq}`, "parentSeq");
		}
	}
	const tooDeep = findExcessiveNesting(object);
	if (tooDeep !== undefined) {
		return fail(
			"SCHEMA_VIOLATION",
			`${tooDeep || "the record"} nests objects and arrays deeper than ${MAX_NESTING_DEPTH} levels`,
			tooDeep,
		);
	}
	if (version > CURRENT_SCHEMA_VERSION) {
		return opaque(object, seq, version, `schemaVersion ${version} is newer than ${CURRENT_SCHEMA_VERSION}`);
	}
	if (!KNOWN_RECORD_TYPES.has(recordType)) {
		return opaque(object, seq, version, `unknown recordType ${JSON.stringify(clip(recordType, 40))}`);
	}
	const upgraded = version < CURRENT_SCHEMA_VERSION ? migrateRecord(object, version) : object;
	if (typeof upgraded.content === "string") {
		return fail(
			"BARE_STRING_CONTENT",
			'content must be an array of content blocks such as [{"type":"text","text":"..."}], not a bare string (S7.12)',
			"content",
		);
	}
	// The hot types are checked by hand (same rules, same output); the rest, and every failure, by zod.
	let record = fastRecord(upgraded, { reuse });
	if (!record) {
		const result = sessionRecordSchema.safeParse(upgraded);
		if (!result.success) return schemaFailure(result.error);
		record = result.data;
	}
	return version < CURRENT_SCHEMA_VERSION ? { ok: true, record, migratedFrom: version } : { ok: true, record };
}

/**
 * One record as one line of JSON, without the newline. The line holds no raw LF or CR (JSON
 * escapes them) and no raw U+0085, U+2028 or U+2029 either (escaped here), so no line-splitting
 * reader breaks it. An opaque record read from a line and not renumbered is written back
 * exactly as it was read.
 */
export function serializeRecord(record: StoredRecord): string {
	if (record.recordType === "opaque") {
		const original = record.original;
		const sameParent =
			record.parentSeq === undefined ? !("parentSeq" in original) : original.parentSeq === record.parentSeq;
		if (record.line !== undefined && original.seq === record.seq && sameParent) return record.line;
		const out: Record<string, unknown> = { ...original, seq: record.seq };
		if (record.parentSeq !== undefined) out.parentSeq = record.parentSeq;
		return escapeLineBreaks(JSON.stringify(out));
	}
	return escapeLineBreaks(JSON.stringify(record));
}

/** One record as one line of JSON, with its newline: what a store appends. */
export function recordLine(record: StoredRecord): string {
	return `${serializeRecord(record)}\n`;
}

const UNICODE_BREAKS = /[\u0085\u2028\u2029]/g;

function escapeLineBreaks(json: string): string {
	// These characters can only occur inside JSON strings, where \uXXXX means the same thing.
	// indexOf, not a regex test: a memchr-like scan (and none at all for U+2028/U+2029 in a
	// one-byte string), several times cheaper on every line an append writes.
	const found = json.indexOf("\u0085") !== -1 || json.indexOf("\u2028") !== -1 || json.indexOf("\u2029") !== -1;
	return found ? json.replace(UNICODE_BREAKS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) : json;
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
	if (parentSeq === null || typeof parentSeq === "number") record.parentSeq = parentSeq;
	return { ok: true, record };
}

function fail(code: LineProblemCode, message: string, path?: string): ParsedLine {
	return { ok: false, problem: path === undefined ? { code, message } : { code, message, path } };
}
