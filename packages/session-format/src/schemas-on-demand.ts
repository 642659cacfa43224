import type { ParsedLine } from "./parse-line.js";
import { parseLineWith } from "./parse-line.js";
import type { checkMetadataSchema, checkRecordSchema, MetadataCheck } from "./schema-checks.js";

/**
 * The zod checks for readers, loaded the first time one is needed. Reading checks the records and
 * metadata.json files this library writes by hand; zod (a fifth of a read command's start-up on
 * the machines measured) is only needed for what that check does not accept: a damaged line, a
 * record type it does not cover, a file written by other code. A reader asks the functions here,
 * and on `undefined` awaits loadSchemaChecks() and asks again.
 */
interface SchemaChecks {
	checkRecordSchema: typeof checkRecordSchema;
	checkMetadataSchema: typeof checkMetadataSchema;
}

let loaded: SchemaChecks | undefined;

/** Loads the zod checks (once); afterwards the functions below always answer. */
export async function loadSchemaChecks(): Promise<void> {
	loaded ??= await import("./schema-checks.js");
}

/** True once loadSchemaChecks() has run: the functions here always answer. */
export function schemaChecksLoaded(): boolean {
	return loaded !== undefined;
}

/** parseRecordLine's answer, or undefined when the line needs the schemas and they are not loaded yet. */
export function tryParseRecordLine(line: string): ParsedLine | undefined {
	return parseLineWith(line, loaded?.checkRecordSchema);
}

/** The schema's verdict on a metadata.json value the hand check refused, or undefined when not loaded yet. */
export function tryCheckMetadata(value: unknown): MetadataCheck | undefined {
	return loaded?.checkMetadataSchema(value);
}
