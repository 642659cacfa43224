import type * as z from "zod";
import { type SessionMetadata, sessionMetadataSchema } from "./metadata.js";
import { fail, type ParsedLine } from "./parse-line.js";
import { sessionRecordSchema } from "./records.js";

/**
 * The checks that need the zod schemas: what decides a record or a metadata.json the hand checks
 * do not accept, and says precisely what is wrong with it. Loaded statically by the validating
 * entry points (parse.ts) and on demand by readers (schemas-on-demand.ts).
 */

/** A record object checked by the record schema (for parse-line.ts's SchemaCheck). */
export function checkRecordSchema(value: Record<string, unknown>): ParsedLine {
	const result = sessionRecordSchema.safeParse(value);
	return result.success ? { ok: true, record: result.data } : schemaFailure(result.error);
}

export type MetadataCheck = { ok: true; metadata: SessionMetadata } | { ok: false; reason: string };

/** A parsed metadata.json checked by the metadata schema (defaults filled in). */
export function checkMetadataSchema(value: unknown): MetadataCheck {
	const result = sessionMetadataSchema.safeParse(value);
	if (result.success) return { ok: true, metadata: result.data };
	const issue = result.error.issues[0];
	return { ok: false, reason: `${issue?.path.join(".") ?? ""}: ${issue?.message ?? "schema violation"}` };
}

function schemaFailure(error: z.ZodError): ParsedLine {
	const issue = error.issues[0];
	const path = issue ? issue.path.join(".") : "";
	return fail("SCHEMA_VIOLATION", `${path ? `${path}: ` : ""}${issue?.message ?? "schema violation"}`, path);
}
