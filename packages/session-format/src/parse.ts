import { type ParsedLine, parseLineWith, parseValueWith } from "./parse-line.js";
import { checkRecordSchema } from "./schema-checks.js";

/** Parses one line of a session log (without its newline) into a record, or says precisely why not. Never throws. */
export function parseRecordLine(line: string): ParsedLine {
	return parseLineWith(line, checkRecordSchema) as ParsedLine;
}

/** Like parseRecordLine, for a value that is already parsed JSON. Never throws. */
export function parseRecordValue(value: unknown): ParsedLine {
	return parseValueWith(value, checkRecordSchema) as ParsedLine;
}
