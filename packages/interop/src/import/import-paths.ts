import type { SessionStore } from "@agent/session-format";
import type { ImportFormat } from "../types.js";
import { type FileOutcome, importFile } from "./import-file.js";
import { ImportIndex } from "./import-index.js";
import type { ImportResult } from "./import-result.js";
import { linkSubAgent } from "./links.js";
import { findSourceFiles } from "./source-files.js";

export type { ImportResult } from "./import-result.js";

export interface ImportOptions {
	/** The format of the sources; "auto" (the default) detects it per file. */
	from?: ImportFormat;
	/** Called after each file with how many are done, how many there are, and the file. */
	onProgress?: (done: number, total: number, path: string) => void;
}

/**
 * Imports session files into `store`: files as given, directories recursively (their .jsonl
 * files, Gemini CLI chats, OpenCode databases). Sources are only read. Idempotent: a source
 * imported before (same format and source session id, found through `metadata.importedFrom`)
 * returns the same session id and is brought to what a fresh import would give. A file named
 * itself that is not a session (or cannot be converted) fails; one found in a directory is
 * skipped. Storage errors are thrown. A sub-agent's session is linked with the session that
 * spawned it when both are imported. One result per session: an OpenCode database gives one
 * for each of its sessions.
 */
export async function importPaths(
	store: SessionStore,
	paths: readonly string[],
	options: ImportOptions = {},
): Promise<ImportResult[]> {
	const files = await findSourceFiles(paths);
	const index = await ImportIndex.load(store);
	const results = new Map<string, FileOutcome[]>();
	const parents: FileOutcome[] = [];
	// Sub-agents' files after the others, so the session that spawned one exists when it is linked.
	const order = [...files].sort((a, b) => Number(isSubAgentFile(a.path)) - Number(isSubAgentFile(b.path)));
	for (const [position, file] of order.entries()) {
		const outcomes = await importFile(store, index, file, options.from ?? "auto");
		results.set(file.path, outcomes);
		for (const outcome of outcomes) if (outcome.parentSourceId && outcome.result.id) parents.push(outcome);
		options.onProgress?.(position + 1, files.length, file.path);
	}
	const all = files.flatMap((file) => (results.get(file.path) ?? []).map((outcome) => outcome.result));
	for (const { result, parentSourceId } of parents) {
		const parent = result.format && parentSourceId ? index.get(result.format, parentSourceId) : undefined;
		if (!parent || !parentSourceId || !result.sourceId) continue;
		await linkSubAgent(store, {
			parentId: parent.id,
			parentSourceId,
			childId: result.id,
			childSourceId: result.sourceId,
		});
		result.linked = [parent.id];
		const parentResult = all.find((candidate) => candidate.id === parent.id);
		if (parentResult) parentResult.linked = [...(parentResult.linked ?? []), result.id];
	}
	return all;
}

function isSubAgentFile(path: string): boolean {
	return /(^|[\\/])agent-[^\\/]*\.jsonl$/.test(path);
}
