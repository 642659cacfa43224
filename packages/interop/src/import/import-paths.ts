import { isAgentSessionError, type SessionStore } from "@agent/session-format";
import { convertSession } from "../convert.js";
import type { ImportFormat, SourceFormat } from "../types.js";
import { ImportIndex } from "./import-index.js";
import { type ImportStatus, syncConverted } from "./import-session.js";
import { fernSidecars, findSourceFiles, readSourceLines } from "./source-files.js";

export interface ImportOptions {
	/** The format of the sources; "auto" (the default) detects it per file. */
	from?: ImportFormat;
	/** Called after each file with how many are done, how many there are, and the file. */
	onProgress?: (done: number, total: number, path: string) => void;
}

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
}

/**
 * Imports session files into `store`: files as given, directories recursively (their .jsonl
 * files). Sources are only read. Idempotent: a source imported before (same format and source
 * session id, found through `metadata.importedFrom`) returns the same session id and adds
 * nothing. A file that is not a session (or cannot be converted) is reported, not thrown;
 * storage errors are thrown.
 */
export async function importPaths(
	store: SessionStore,
	paths: readonly string[],
	options: ImportOptions = {},
): Promise<ImportResult[]> {
	const files = await findSourceFiles(paths);
	const index = await ImportIndex.load(store);
	const results: ImportResult[] = [];
	for (const [position, file] of files.entries()) {
		results.push(await importFile(store, index, file, options.from ?? "auto"));
		options.onProgress?.(position + 1, files.length, file);
	}
	return results;
}

async function importFile(
	store: SessionStore,
	index: ImportIndex,
	file: string,
	from: ImportFormat,
): Promise<ImportResult> {
	const sidecars = await fernSidecars(file);
	if (sidecars.isToolLog && (from === "auto" || from === "fern")) {
		return skipped(file, "fern's tool execution log (observability only, beside session.jsonl), not a session");
	}
	let converted: ReturnType<typeof convertSession>;
	try {
		const lines = await readSourceLines(file);
		converted = convertSession(lines, { from, sourcePath: file, metadata: sidecars.metadata });
	} catch (error) {
		if (isAgentSessionError(error, "INVALID_ARGUMENT")) {
			const notDetected = from === "auto" && /is not a session in a format/.test(error.message);
			return notDetected ? skipped(file, error.message) : failed(file, error.message);
		}
		if (isAgentSessionError(error)) throw error;
		return failed(file, `@agent/interop: ${file} could not be read (${(error as Error).message})`);
	}
	const warnings = sidecars.metadataError ? [sidecars.metadataError, ...converted.warnings] : converted.warnings;
	const base = {
		source: file,
		records: converted.records.length,
		format: converted.format,
		sourceId: converted.sourceId,
	};
	try {
		const sync = await syncConverted(store, index, converted);
		const result: ImportResult = {
			...base,
			id: sync.id,
			status: sync.status,
			warnings: sync.note ? [...warnings, sync.note] : warnings,
		};
		if (sync.status === "unchanged") result.skipped = true;
		return result;
	} catch (error) {
		// A record the store refuses is a conversion problem of this file, not of the store.
		if (isAgentSessionError(error, "INVALID_RECORD")) {
			return {
				...failed(file, `@agent/interop: ${file} converted to a record the store refuses: ${error.message}`),
				...base,
			};
		}
		throw error;
	}
}

function skipped(source: string, reason: string): ImportResult {
	return { source, id: "", records: 0, warnings: [reason], skipped: true, status: "skipped" };
}

function failed(source: string, reason: string): ImportResult {
	return { source, id: "", records: 0, warnings: [reason], skipped: true, status: "failed", error: reason };
}
