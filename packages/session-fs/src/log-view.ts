import { closeSync } from "node:fs";
import { AgentSessionError } from "@agent/session-format/reading";
import { rebuildBase } from "@agent/session-format/store-kit";
import { errnoCode, notFound, storageFailure } from "./errors.js";
import { type LogState, loadLogState } from "./log-state.js";
import { createMetadataFileIfAbsent, readMetadataFile } from "./metadata-file.js";
import type { ResolvedOptions } from "./options.js";
import type { SessionPaths } from "./paths.js";
import { assertRealDirectory, openOwnFile, READ_FLAGS } from "./safe-files.js";

/** A reader's view of a session: the log opened read-only (absent when there is no log yet) and fresh metadata. */
export interface LogView {
	fd: number | undefined;
	state: LogState;
}

/**
 * Opens a session for reading. Readers never take the lease and never replace metadata.json;
 * when it is missing (a directory holding only session.jsonl is a valid session) they rebuild it
 * and create it, with a link that fails rather than replace one a writer wrote meanwhile.
 */
export async function openLogView(paths: SessionPaths, options: ResolvedOptions): Promise<LogView> {
	assertRealDirectory(paths.dir);
	let fd: number;
	try {
		fd = openOwnFile(paths.log, READ_FLAGS);
	} catch (error) {
		if (errnoCode(error) !== "ENOENT") {
			if (error instanceof AgentSessionError) throw error;
			throw storageFailure(`could not open ${paths.log} for reading`, error);
		}
		const stored = await readMetadataFile(paths.metadata, paths.id);
		if (stored.state === "missing") throw notFound(paths.id);
		const metadata = stored.state === "ok" ? stored.metadata : rebuildBase(paths.id);
		return {
			fd: undefined,
			state: { metadata, size: 0, completeBytes: 0, unterminated: false, stored, refresh: "fresh" },
		};
	}
	try {
		const state = await loadLogState(fd, paths, {
			chunkBytes: options.forwardChunkBytes,
			maxLineBytes: options.maxLineBytes,
		});
		if (state.stored.state === "missing") createMetadataFileIfAbsent(paths, state.metadata);
		return { fd, state };
	} catch (error) {
		closeSync(fd);
		throw error;
	}
}

export function closeLogView(view: LogView): void {
	if (view.fd !== undefined) closeSync(view.fd);
}

export async function withLogView<T>(
	paths: SessionPaths,
	options: ResolvedOptions,
	work: (view: LogView) => Promise<T>,
): Promise<T> {
	const view = await openLogView(paths, options);
	try {
		return await work(view);
	} finally {
		closeLogView(view);
	}
}
