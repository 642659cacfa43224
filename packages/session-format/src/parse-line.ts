import { clip, describeValue } from "./describe.js";
import { fastRecord } from "./fast-record.js";
import { findExcessiveNesting, MAX_NESTING_DEPTH } from "./limits.js";
import { migrateRecord } from "./migrate.js";
import { CURRENT_SCHEMA_VERSION, KNOWN_RECORD_TYPES } from "./record-kinds.js";
import type { OpaqueRecord, StoredRecord } from "./records.js";

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

/**
 * Decides a record object the hand check (fast-record.ts) did not accept: the zod schemas
 * (schema-checks.ts), which say precisely what is wrong. The parsing here takes it as a
 * parameter so that reading, which almost never needs it, does not load zod (parse.ts passes it
 * always; schemas-on-demand.ts once loaded).
 */
export type SchemaCheck = (value: Record<string, unknown>) => ParsedLine;

/**
 * Parses one line of a session log (without its newline) into a record, or says precisely why
 * not; undefined when only `check` can decide and none is given. Never throws.
 */
export function parseLineWith(line: string, check: SchemaCheck | undefined): ParsedLine | undefined {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch (error) {
		return fail("INVALID_JSON", `not valid JSON (${clip(String((error as Error)?.message ?? error))})`);
	}
	// The value is this call's own: records already in the schema's shape are kept, not copied.
	const parsed = parseChecked(value, true, check);
	// Keep the exact text of a line this library does not understand, so it is written back byte for byte.
	if (parsed?.ok && parsed.record.recordType === "opaque") parsed.record.line = line.trim();
	return parsed;
}

/** Like parseLineWith, for a value that is already parsed JSON (and stays the caller's). */
export function parseValueWith(value: unknown, check: SchemaCheck | undefined): ParsedLine | undefined {
	return parseChecked(value, false, check);
}

function parseChecked(value: unknown, reuse: boolean, check: SchemaCheck | undefined): ParsedLine | undefined {
	try {
		return parseObject(value, reuse, check);
	} catch (error) {
		// Nothing above is expected to throw; this keeps a reader alive whatever a line holds.
		return fail("SCHEMA_VIOLATION", `the record could not be checked (${clip(String((error as Error)?.message))})`);
	}
}

function parseObject(value: unknown, reuse: boolean, check: SchemaCheck | undefined): ParsedLine | undefined {
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
	const record = fastRecord(upgraded, { reuse });
	if (!record) {
		if (!check) return undefined;
		const checked = check(upgraded);
		if (!checked.ok || version === CURRENT_SCHEMA_VERSION) return checked;
		return { ok: true, record: checked.record, migratedFrom: version };
	}
	return version < CURRENT_SCHEMA_VERSION ? { ok: true, record, migratedFrom: version } : { ok: true, record };
}

/** Why a line is not a record, in a reader's words: the problem and, for a schema violation, where. */
export function lineProblemReason(problem: LineProblem): string {
	return problem.path ? `${problem.message} (at ${problem.path})` : problem.message;
}

/** True for a record kept opaque (a newer schemaVersion or an unknown recordType). */
export function isOpaque(record: StoredRecord): record is OpaqueRecord {
	return record.recordType === "opaque";
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

export function fail(code: LineProblemCode, message: string, path?: string): ParsedLine {
	return { ok: false, problem: path === undefined ? { code, message } : { code, message, path } };
}
