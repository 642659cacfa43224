import { isAgentSessionError, type SessionStore } from "@agent/session-format";
import { convertSession } from "../convert.js";
import { convertOpenCodeSession } from "../formats/opencode-import.js";
import type { ConvertedSession, ImportFormat } from "../types.js";
import type { ImportIndex } from "./import-index.js";
import { failed, type ImportResult, skipped } from "./import-result.js";
import { syncConverted } from "./import-session.js";
import { isSqliteFile, readOpenCodeDatabase } from "./opencode-db.js";
import { fernSidecars, readSourceLines, type SourceFile } from "./source-files.js";

/** What importing one session of a source gave, and the session that spawned it (to link them). */
export interface FileOutcome {
	result: ImportResult;
	parentSourceId?: string;
}

/** Imports one source file: one outcome per session in it (a session file holds one, an OpenCode database many). */
export async function importFile(
	store: SessionStore,
	index: ImportIndex,
	file: SourceFile,
	from: ImportFormat,
): Promise<FileOutcome[]> {
	const source = file.path;
	try {
		if (await isSqliteFile(source)) return await importDatabase(store, index, file, from);
	} catch (error) {
		return [{ result: failed(source, `@agent/interop: ${source} could not be read (${(error as Error).message})`) }];
	}
	const sidecars = await fernSidecars(source);
	if (sidecars.isToolLog && (from === "auto" || from === "fern")) {
		return [
			{
				result: skipped(source, "fern's tool execution log (observability only, beside session.jsonl), not a session"),
			},
		];
	}
	let converted: ConvertedSession;
	try {
		const lines = await readSourceLines(source);
		if (lines.every((line) => line.trim() === "")) {
			const reason = `@agent/interop: ${source} is empty. Name a session file that has lines, or leave it out`;
			return [{ result: file.named ? failed(source, reason) : skipped(source, reason) }];
		}
		converted = convertSession(lines, { from, sourcePath: source, metadata: sidecars.metadata });
	} catch (error) {
		return [{ result: conversionFailure(error, source, file.named, from) }];
	}
	return [await syncOne(store, index, converted, source, sidecars.metadataError)];
}

/** Every session of an OpenCode database. */
async function importDatabase(
	store: SessionStore,
	index: ImportIndex,
	file: SourceFile,
	from: ImportFormat,
): Promise<FileOutcome[]> {
	const source = file.path;
	if (from !== "auto" && from !== "opencode") {
		const reason = `@agent/interop: ${source} is an SQLite database, not a ${from} session. Only OpenCode's database (--from opencode or auto) is read`;
		return [{ result: failed(source, reason) }];
	}
	const outcomes: FileOutcome[] = [];
	try {
		for await (const session of readOpenCodeDatabase(source)) {
			outcomes.push(await syncOne(store, index, convertOpenCodeSession(session), source));
		}
	} catch (error) {
		if (!isAgentSessionError(error, "INVALID_ARGUMENT")) throw error;
		return [...outcomes, { result: file.named ? failed(source, error.message) : skipped(source, error.message) }];
	}
	if (outcomes.length === 0)
		return [{ result: skipped(source, `@agent/interop: ${source} is an OpenCode database without sessions`) }];
	return outcomes;
}

function conversionFailure(error: unknown, source: string, named: boolean, from: ImportFormat): ImportResult {
	if (isAgentSessionError(error, "INVALID_ARGUMENT")) {
		const notDetected = from === "auto" && /is not a session in a format/.test(error.message);
		return notDetected && !named ? skipped(source, error.message) : failed(source, error.message);
	}
	if (isAgentSessionError(error)) throw error;
	return failed(source, `@agent/interop: ${source} could not be read (${(error as Error).message})`);
}

/** Writes one converted session into the store (see syncConverted) and says how it went. */
async function syncOne(
	store: SessionStore,
	index: ImportIndex,
	converted: ConvertedSession,
	source: string,
	extraWarning?: string,
): Promise<FileOutcome> {
	const warnings = extraWarning ? [extraWarning, ...converted.warnings] : converted.warnings;
	const base = { source, records: converted.records.length, format: converted.format, sourceId: converted.sourceId };
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
