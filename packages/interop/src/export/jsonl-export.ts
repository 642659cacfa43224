import { recordLine } from "@agent/session-format";
import type { RecordSource } from "./record-source.js";

/** Our own JSONL: every record of the log, one line each, as the store holds it (unread lines verbatim). */
export async function* jsonlChunks(source: RecordSource): AsyncGenerator<string> {
	for await (const record of source()) yield recordLine(record);
}
