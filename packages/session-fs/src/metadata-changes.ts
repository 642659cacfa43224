import { closeSync, constants, unlinkSync, writeSync } from "node:fs";
import { errnoCode, storageFailure } from "./errors.js";
import { openOwnFile, readOwnFileCapped } from "./safe-files.js";

/**
 * The store's change mark ($AGENT_HOME/cache/metadata-changes): a token that every change of a
 * metadata.json replaces, so that a listing can tell in one read that no metadata.json changed
 * since its snapshot was taken, and use the snapshot without a stat per session (on the machines
 * measured, 2,000 stats and their objects were a third of a `list` over 2,000 sessions).
 *
 * The rules that make the snapshot safe to trust (metadata-cache.ts):
 * - A writer replaces the token *after* each rename (or link) of a metadata.json, and when it
 *   takes a session's lease (a writer that died between its rename and its mark is followed by
 *   the next one, which marks before it does anything).
 * - A listing reads the token *before* it checks the files, and stores that token with what it
 *   found. A change it may have missed was renamed after the token was read, so its mark came
 *   later still and the stored token is already stale.
 * - No mark file, or one that cannot be read, means "not known": every file is checked.
 *
 * The token is written in place (fixed length, one write) rather than by temp file + rename: a
 * write torn by a crash leaves bytes that no listing ever stored, which is as good as a new token.
 * What changes a metadata.json from outside the store (an editor, a restore from backup over an
 * existing session) is not marked: delete $AGENT_HOME/cache after such surgery.
 */

const TOKEN_LENGTH = 48;
const MARK_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW;
let marks = 0;

/** A token no other mark has written: this process, this instant, a counter and chance. */
function newToken(): string {
	const parts = [process.pid, Date.now(), ++marks, Math.random().toString(36).slice(2)];
	return parts.join("-").padEnd(TOKEN_LENGTH, ".").slice(0, TOKEN_LENGTH);
}

/**
 * Records that a metadata.json of the store changed. No cache directory means no listing has
 * stored a snapshot to invalidate. A mark that cannot be written is removed instead, so that no
 * listing trusts the old token; a home where neither works is reported.
 */
export function markMetadataChanged(markPath: string): void {
	let fd: number;
	try {
		fd = openOwnFile(markPath, MARK_FLAGS);
	} catch (error) {
		if (errnoCode(error) === "ENOENT") return;
		removeMark(markPath, error);
		return;
	}
	try {
		writeNewToken(fd);
	} catch (error) {
		removeMark(markPath, error);
	} finally {
		closeSync(fd);
	}
}

/**
 * The current token, for a listing about to check the files. A cache directory without a mark
 * (a store no writer touched since this code came) gets one first, so that the next listing can
 * trust this one; that is safe because it is written before this listing looks at any file.
 * Undefined when there is none (or it cannot be read), which trusts nothing.
 */
export function currentMetadataChanges(markPath: string): string | undefined {
	const token = readToken(markPath);
	if (token !== "missing") return token;
	let fd: number;
	try {
		fd = openOwnFile(markPath, MARK_FLAGS | constants.O_EXCL);
	} catch {
		// No cache directory yet, or another process made the mark just now: nothing to trust yet.
		return undefined;
	}
	try {
		return writeNewToken(fd);
	} catch {
		return undefined;
	} finally {
		closeSync(fd);
	}
}

/** The mark's token; undefined when it holds none (damaged, not a file), "missing" when there is no mark. */
function readToken(markPath: string): string | undefined | "missing" {
	const read = readOwnFileCapped(markPath, TOKEN_LENGTH);
	if (read.state === "missing") return "missing";
	return read.state === "ok" && read.bytes.length === TOKEN_LENGTH ? read.bytes.toString("latin1") : undefined;
}

/** Writes a new token over the mark open at `fd` (in place: the token has a fixed length), and returns it. */
function writeNewToken(fd: number): string {
	const token = newToken();
	const bytes = Buffer.from(token, "latin1");
	if (writeSync(fd, bytes, 0, bytes.length, 0) !== bytes.length) throw new Error("short write");
	return token;
}

function removeMark(markPath: string, cause: unknown): void {
	try {
		unlinkSync(markPath);
	} catch {
		// Still safe when no listing can read a token from it (a directory, say).
		const left = readToken(markPath);
		if (left === undefined || left === "missing") return;
		throw storageFailure(
			`could not update or remove ${markPath}, which tells listings that no session changed; remove $AGENT_HOME/cache by hand`,
			cause,
		);
	}
}
