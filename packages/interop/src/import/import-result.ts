import type { SourceFormat } from "../types.js";
import type { ImportStatus } from "./import-session.js";

export interface ImportResult {
	/** The source file (absolute path). */
	source: string;
	/** Our session id; empty when the file was skipped or failed before a session existed. */
	id: string;
	/** Records the source converts to. */
	records: number;
	/** What did not map one to one (with line numbers), and why a file was skipped or failed. */
	warnings: string[];
	/** True when nothing was written for this file (unchanged, skipped, failed). */
	skipped?: boolean;
	/** imported: a new session; appended: an earlier import completed; unchanged: imported before; skipped: not a session; failed: unreadable. */
	status: ImportStatus;
	format?: SourceFormat;
	/** The source's own session id (what makes imports idempotent). */
	sourceId?: string;
	/** Why the file failed. */
	error?: string;
	/** Sessions this one was linked with (a sub-agent and the session that spawned it), by our ids. */
	linked?: string[];
}

export function skipped(source: string, reason: string): ImportResult {
	return { source, id: "", records: 0, warnings: [reason], skipped: true, status: "skipped" };
}

/** A failure says why once, in `error` (not again among the warnings). */
export function failed(source: string, reason: string): ImportResult {
	return { source, id: "", records: 0, warnings: [], skipped: true, status: "failed", error: reason };
}
