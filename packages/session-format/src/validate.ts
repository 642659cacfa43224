import { appendViolation } from "./append-invariants.js";
import { describeValue } from "./describe.js";
import { InvalidRecordError } from "./errors.js";
import { fastRecord } from "./fast-record.js";
import { findExcessiveNesting, MAX_NESTING_DEPTH } from "./limits.js";
import { CURRENT_SCHEMA_VERSION, KNOWN_RECORD_TYPES, RECORD_TYPES } from "./record-kinds.js";
import { type RecordInput, type SessionHeader, type SessionRecord, sessionRecordSchema } from "./records.js";

/** An ISO 8601 date-time with a zone, e.g. 2025-02-11T10:00:00Z or 2025-02-11T10:00:00.123+01:00. */
const ISO_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/** True when `value` is an ISO 8601 date-time with a zone that names a real calendar day and time. */
export function isIsoTimestamp(value: unknown): value is string {
	if (typeof value !== "string") return false;
	const match = ISO_TIMESTAMP.exec(value);
	if (!match) return false;
	const [year, month, day, hour, minute, second, zoneHour, zoneMinute] = match
		.slice(1)
		.map((part) => Number(part ?? 0));
	const daysInMonth = new Date(Date.UTC(year as number, month as number, 0)).getUTCDate();
	const within = (part: number | undefined, min: number, max: number) =>
		part !== undefined && part >= min && part <= max;
	return (
		within(month, 1, 12) &&
		within(day, 1, daysInMonth) &&
		within(hour, 0, 23) &&
		within(minute, 0, 59) &&
		within(second, 0, 59) &&
		within(zoneHour, 0, 23) &&
		within(zoneMinute, 0, 59)
	);
}

/**
 * Validates a record a caller wants to append. seq, schemaVersion and timestamp may be absent;
 * the returned record has them filled: seq and timestamp from `fill`, schemaVersion with the
 * current version. When present they must agree: seq must equal `fill.seq`, schemaVersion must be
 * the current version, timestamp must be ISO 8601 with a zone. Throws InvalidRecordError with the
 * field path and, for batches, the index of the offending record.
 */
export function validateRecordInput(
	input: unknown,
	fill: { seq: number; timestamp: string; session?: SessionHeader },
	index?: number,
): SessionRecord {
	const where = index === undefined ? "" : ` (record ${index + 1} of the batch)`;
	const reject = (path: string, message: string, cause?: unknown): never => {
		throw new InvalidRecordError(`@agent/session-format: ${message}${where}`, { path, index, cause });
	};
	if (typeof input !== "object" || input === null || Array.isArray(input)) {
		return reject("", `a record must be a JSON object, got ${describeValue(input)}`);
	}
	const object = input as Partial<RecordInput> & Record<string, unknown>;
	if (typeof object.recordType !== "string" || !KNOWN_RECORD_TYPES.has(object.recordType)) {
		return reject(
			"recordType",
			`recordType ${describeValue(object.recordType)} is not one of ${RECORD_TYPES.join(", ")}`,
		);
	}
	if (object.schemaVersion !== undefined && object.schemaVersion !== CURRENT_SCHEMA_VERSION) {
		return reject(
			"schemaVersion",
			`schemaVersion ${describeValue(object.schemaVersion)} cannot be appended; omit it and ${CURRENT_SCHEMA_VERSION} is used`,
		);
	}
	if (object.seq !== undefined && object.seq !== fill.seq) {
		return reject(
			"seq",
			`seq ${describeValue(object.seq)} does not match the next seq of the log (${fill.seq}); omit seq and the store assigns it`,
		);
	}
	if (object.timestamp !== undefined && !isIsoTimestamp(object.timestamp)) {
		return reject(
			"timestamp",
			`timestamp ${describeValue(object.timestamp)} is not an ISO 8601 date-time such as 2025-02-11T10:00:00Z; omit it and the time of the append is used`,
		);
	}
	if ("session" in object) {
		return reject(
			"session",
			"the session header is written by the store on a session's first record; leave session out",
		);
	}
	if (typeof object.content === "string") {
		return reject(
			"content",
			'content must be an array of content blocks such as [{"type":"text","text":"..."}], not a bare string (S7.12)',
		);
	}
	if (typeof object.parentSeq === "number" && object.parentSeq >= fill.seq) {
		return reject(
			"parentSeq",
			`parentSeq ${object.parentSeq} must name an earlier record than the one being written (seq ${fill.seq})`,
		);
	}
	const tooDeep = findExcessiveNesting(object);
	if (tooDeep !== undefined) {
		return reject(
			tooDeep,
			`${tooDeep || "the record"} nests objects and arrays deeper than ${MAX_NESTING_DEPTH} levels`,
		);
	}
	const base = {
		schemaVersion: CURRENT_SCHEMA_VERSION,
		seq: fill.seq,
		timestamp: object.timestamp ?? fill.timestamp,
	};
	const record = fill.session === undefined ? fastRecord(object, { fill: base }) : undefined;
	const checked = record ?? schemaRecord(object, base, fill.session, reject);
	const violation = appendViolation(checked);
	if (violation) return reject(violation.path, `invalid ${object.recordType} record: ${violation.message}`);
	return checked;
}

function schemaRecord(
	object: Record<string, unknown>,
	base: { schemaVersion: number; seq: number; timestamp: string },
	session: SessionHeader | undefined,
	reject: (path: string, message: string, cause?: unknown) => never,
): SessionRecord {
	const candidate = session === undefined ? { ...object, ...base } : { ...object, ...base, session };
	const result = sessionRecordSchema.safeParse(candidate);
	if (!result.success) {
		const issue = result.error.issues[0];
		const path = issue ? issue.path.join(".") : "";
		return reject(
			path,
			`invalid ${String(object.recordType)} record: ${path ? `${path}: ` : ""}${issue?.message ?? "schema violation"}`,
			result.error,
		);
	}
	return result.data;
}
