import { closeSync, fsyncSync, readdirSync, renameSync, rmdirSync, rmSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { type AcceptedTurn, AgentSessionError, type JournaledTurn } from "@agent/session-format/reading";
import { checkAcceptedTurn } from "@agent/session-format/store-kit";
import { errnoCode, notFound, storageFailure } from "./errors.js";
import type { SessionPaths } from "./paths.js";
import { isProcessAlive } from "./process-alive.js";
import { CREATE_FLAGS, makePrivateDir, openOwnFile, readOwnFileCapped, syncDirectory } from "./safe-files.js";

/**
 * The turn journal of the file store: one file per accepted turn, `accepted/<turnId>.json` in the
 * session's directory (0600, written whole to a temporary name and renamed, so a crash leaves the
 * old state or the new), holding the turn and its owner (this process: pid and host). A turn is
 * lost when its owner is a process of this host that no longer runs; a turn accepted on another
 * host (a store on a shared disk) is never taken for lost.
 */

const DIR = "accepted";
/** The largest journal entry read back: a user message of the largest size a server takes, with room. */
const MAX_ENTRY_BYTES = 64 << 20;
const HOST = hostname();

interface Entry extends AcceptedTurn {
	owner: { pid: number; host: string };
}

function dirOf(paths: SessionPaths): string {
	return join(paths.dir, DIR);
}

/** Notes a turn (checked by the store shell, its id a safe file name). */
export function noteAcceptedTurn(paths: SessionPaths, turn: AcceptedTurn, fsync: boolean): void {
	const entry: Entry = { ...turn, owner: { pid: process.pid, host: HOST } };
	// The directory goes when its last turn is forgotten; one removed between making it and
	// writing into it is made again.
	for (let attempt = 1; ; attempt++) {
		try {
			writeEntry(paths, entry, fsync);
			return;
		} catch (error) {
			if (error instanceof AgentSessionError) throw error;
			if (errnoCode(error) !== "ENOENT" || attempt === 3) {
				throw storageFailure(`could not note accepted turn ${turn.turnId} of session ${paths.id}`, error);
			}
		}
	}
}

function writeEntry(paths: SessionPaths, entry: Entry, fsync: boolean): void {
	const dir = dirOf(paths);
	try {
		makePrivateDir(dir);
	} catch (error) {
		if (errnoCode(error) === "ENOENT") throw notFound(paths.id);
		if (errnoCode(error) !== "EEXIST") throw error;
	}
	const file = join(dir, `${entry.turnId}.json`);
	const temp = `${file}.${process.pid}.tmp`;
	try {
		const fd = openOwnFile(temp, CREATE_FLAGS);
		try {
			writeSync(fd, JSON.stringify(entry));
			if (fsync) fsyncSync(fd);
		} finally {
			closeSync(fd);
		}
		renameSync(temp, file);
		if (fsync) syncDirectory(dir);
	} catch (error) {
		rmSync(temp, { force: true });
		throw error;
	}
}

export function acceptedTurns(paths: SessionPaths): JournaledTurn[] {
	let names: string[];
	try {
		names = readdirSync(dirOf(paths)).filter((name) => name.endsWith(".json"));
	} catch (error) {
		if (errnoCode(error) === "ENOENT") return [];
		throw storageFailure(`could not read ${dirOf(paths)}`, error);
	}
	const turns: JournaledTurn[] = [];
	for (const name of names) {
		const read = readOwnFileCapped(join(dirOf(paths), name), MAX_ENTRY_BYTES);
		if (read.state !== "ok") continue;
		let entry: Entry;
		try {
			entry = JSON.parse(read.bytes.toString("utf8")) as Entry;
			checkAcceptedTurn(entry);
		} catch {
			continue; // A damaged entry cannot be recorded; it stays for an operator to see.
		}
		const { owner, ...turn } = entry;
		const lost = owner?.host === HOST && owner.pid !== process.pid && !isProcessAlive(owner.pid);
		turns.push({ ...turn, lost });
	}
	return turns.sort((a, b) => (a.acceptedAt < b.acceptedAt ? -1 : a.acceptedAt > b.acceptedAt ? 1 : 0));
}

export function forgetAcceptedTurn(paths: SessionPaths, turnId: string): void {
	try {
		rmSync(join(dirOf(paths), `${turnId}.json`), { force: true });
	} catch (error) {
		throw storageFailure(`could not forget accepted turn ${turnId} of session ${paths.id}`, error);
	}
	try {
		rmdirSync(dirOf(paths));
	} catch {
		// Another turn is noted (ENOTEMPTY), or the directory is gone already.
	}
}
