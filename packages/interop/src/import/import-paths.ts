import { isAgentSessionError, type SessionStore } from "@agent/session-format";
import { convertSession } from "../convert.js";
import type { ImportFormat, SourceFormat } from "../types.js";
import { ImportIndex } from "./import-index.js";
import { type ImportStatus, syncConverted } from "./import-session.js";
import { linkSubAgent } from "./links.js";
import { fernSidecars, findSourceFiles, readSourceLines, type SourceFile } from "./source-files.js";

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
	/** Sessions this one was linked with (a sub-agent and the session that spawned it), by our ids. */
	linked?: string[];
}

/**
 * Imports session files into `store`: files as given, directories recursively (their .jsonl
 * files). Sources are only read. Idempotent: a source imported before (same format and source
 * session id, found through `metadata.importedFrom`) returns the same session id and is brought
 * to what a fresh import would give. A file named itself that is not a session (or cannot be
 * converted) fails; one found in a directory is skipped. Storage errors are thrown. A Claude
 * Code sub-agent's session is linked with the session that spawned it when both are imported.
 */
export async function importPaths(
	store: SessionStore,
	paths: readonly string[],
	options: ImportOptions = {},
): Promise<ImportResult[]> {
	const files = await findSourceFiles(paths);
	const index = await ImportIndex.load(store);
	const results = new Map<string, ImportResult>();
	const parents: Array<{ result: ImportResult; parentSourceId: string }> = [];
	// Sub-agents' files after the others, so the session that spawned one exists when it is linked.
	const order = [...files].sort((a, b) => Number(isSubAgentFile(a.path)) - Number(isSubAgentFile(b.path)));
	for (const [position, file] of order.entries()) {
		const { result, parentSourceId } = await importFile(store, index, file, options.from ?? "auto");
		results.set(file.path, result);
		if (parentSourceId && result.id) parents.push({ result, parentSourceId });
		options.onProgress?.(position + 1, files.length, file.path);
	}
	for (const { result, parentSourceId } of parents) {
		const parent = result.format ? index.get(result.format, parentSourceId) : undefined;
		if (!parent || !result.sourceId) continue;
		await linkSubAgent(store, {
			parentId: parent.id,
			parentSourceId,
			childId: result.id,
			childSourceId: result.sourceId,
		});
		result.linked = [parent.id];
		const parentResult = [...results.values()].find((candidate) => candidate.id === parent.id);
		if (parentResult) parentResult.linked = [...(parentResult.linked ?? []), result.id];
	}
	return files.map((file) => results.get(file.path) as ImportResult);
}

function isSubAgentFile(path: string): boolean {
	return /(^|[\\/])agent-[^\\/]*\.jsonl$/.test(path);
}

async function importFile(
	store: SessionStore,
	index: ImportIndex,
	file: SourceFile,
	from: ImportFormat,
): Promise<{ result: ImportResult; parentSourceId?: string }> {
	const source = file.path;
	const sidecars = await fernSidecars(source);
	if (sidecars.isToolLog && (from === "auto" || from === "fern")) {
		return {
			result: skipped(source, "fern's tool execution log (observability only, beside session.jsonl), not a session"),
		};
	}
	let converted: ReturnType<typeof convertSession>;
	try {
		const lines = await readSourceLines(source);
		if (lines.every((line) => line.trim() === "")) {
			const reason = `@agent/interop: ${source} is empty. Name a session file that has lines, or leave it out`;
			return { result: file.named ? failed(source, reason) : skipped(source, reason) };
		}
		converted = convertSession(lines, { from, sourcePath: source, metadata: sidecars.metadata });
	} catch (error) {
		if (isAgentSessionError(error, "INVALID_ARGUMENT")) {
			const notDetected = from === "auto" && /is not a session in a format/.test(error.message);
			return { result: notDetected && !file.named ? skipped(source, error.message) : failed(source, error.message) };
		}
		if (isAgentSessionError(error)) throw error;
		return { result: failed(source, `@agent/interop: ${source} could not be read (${(error as Error).message})`) };
	}
	const warnings = sidecars.metadataError ? [sidecars.metadataError, ...converted.warnings] : converted.warnings;
	const base = {
		source,
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
		return { result, ...(converted.parentSourceId ? { parentSourceId: converted.parentSourceId } : {}) };
	} catch (error) {
		// A record the store refuses is a conversion problem of this file, not of the store.
		if (isAgentSessionError(error, "INVALID_RECORD")) {
			const reason = `@agent/interop: ${source} converted to a record the store refuses (${error.message}); nothing was imported from it`;
			return { result: { ...failed(source, reason), ...base } };
		}
		throw error;
	}
}

function skipped(source: string, reason: string): ImportResult {
	return { source, id: "", records: 0, warnings: [reason], skipped: true, status: "skipped" };
}

/** A failure says why once, in `error` (not again among the warnings). */
function failed(source: string, reason: string): ImportResult {
	return { source, id: "", records: 0, warnings: [], skipped: true, status: "failed", error: reason };
}
