import { closeSync, fstatSync, lstatSync } from "node:fs";
import { AgentSessionError, type VerifyProblem } from "@agent/session-format/reading";
import { type CheckedLine, checkLog, type LogCheck, unreadableLog } from "@agent/session-format/store-kit";
import { errnoCode, notFound, storageFailure } from "./errors.js";
import { readLinesForward } from "./line-reader.js";
import { readMetadataFile } from "./metadata-file.js";
import type { SessionPaths } from "./paths.js";
import { classifyLine, classifyLineLoading } from "./record-reader.js";
import { openOwnFile, READ_FLAGS } from "./safe-files.js";

/**
 * verify of one session on disk: its log, every line once, through the log checker every store
 * shares (checkLog), against metadata.json; and what only a file store can get wrong, files or
 * directories that are not what the store makes (a symbolic link, a FIFO), reported and never
 * read through.
 */
export async function verifySession(
	paths: SessionPaths,
	options: { forwardChunkBytes?: number; maxLineBytes?: number } = {},
): Promise<LogCheck> {
	const directory = directoryProblem(paths);
	if (directory) return unreadableLog(paths.id, directory);
	const cached = await readMetadataFile(paths.metadata, paths.id);
	let fd: number | undefined;
	try {
		fd = openOwnFile(paths.log, READ_FLAGS);
	} catch (error) {
		if (errnoCode(error) === "ENOENT") {
			if (cached.state === "missing") throw notFound(paths.id);
		} else if (error instanceof AgentSessionError) {
			// Not a regular file (a symbolic link, a FIFO...): reported, never read through.
			return unreadableLog(paths.id, { kind: "not_a_regular_file", message: (error as Error).message });
		} else {
			throw storageFailure(`could not open ${paths.log}`, error);
		}
	}
	try {
		const bytes = fd === undefined ? 0 : fstatSync(fd).size;
		const rebuildFrom = cached.state === "ok" ? cached.metadata : undefined;
		const lines = fd === undefined ? [] : linesOf(fd, bytes, options);
		return await checkLog(paths.id, lines, { rebuildFrom, cached, bytes });
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
}

/** The log's lines as the checker takes them (readers' rules: classifyLine). */
async function* linesOf(
	fd: number,
	end: number,
	options: { forwardChunkBytes?: number; maxLineBytes?: number },
): AsyncGenerator<CheckedLine> {
	const read = { end, chunkBytes: options.forwardChunkBytes, maxLineBytes: options.maxLineBytes };
	for await (const batch of readLinesForward(fd, read)) {
		for (const raw of batch) {
			const outcome = classifyLine(raw) ?? (await classifyLineLoading(raw));
			const ends = raw.terminated ? { end: raw.byteOffset + raw.byteLength + 1 } : {};
			const where = { line: raw.line, byteOffset: raw.byteOffset, ...ends };
			if (outcome.kind === "blank") yield { kind: "blank", ...ends };
			else if (outcome.kind === "problem") {
				const torn = outcome.problem.code === "TORN_TAIL";
				yield { kind: "damaged", torn, reason: outcome.problem.reason, ...where };
			} else {
				const opaque = outcome.problem ? { opaque: outcome.problem.reason } : {};
				yield { kind: "record", record: outcome.record, ...opaque, ...where };
			}
		}
	}
}

/** A session directory that is a symbolic link (or not a directory) is reported, never read through. */
function directoryProblem(paths: SessionPaths): VerifyProblem | undefined {
	let isLink = false;
	try {
		const stats = lstatSync(paths.dir);
		if (stats.isDirectory()) return undefined;
		isLink = stats.isSymbolicLink();
	} catch (error) {
		if (errnoCode(error) === "ENOENT") return undefined;
		throw storageFailure(`could not look at ${paths.dir}`, error);
	}
	return {
		kind: "not_a_regular_file",
		message: `the session directory is ${isLink ? "a symbolic link" : "not a directory"}; the store never reads or writes through it. Remove it, or move the real directory in its place`,
	};
}
