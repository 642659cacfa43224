import { closeSync, constants, fstatSync, ftruncateSync, readdirSync, readSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { VerifyProblem } from "@agent/session-format/reading";
import { verifyPasses } from "@agent/session-format/store-kit";
import { errnoCode } from "./errors.js";
import { DEFAULT_MAX_LINE_BYTES } from "./line-reader.js";
import { writeMetadataFile } from "./metadata-file.js";
import type { SessionPaths } from "./paths.js";
import { classifyLine, classifyLineLoading } from "./record-reader.js";
import {
	assertRealDirectory,
	CREATE_FLAGS,
	MAX_METADATA_BYTES,
	makePrivateDir,
	openOwnFile,
	READ_FLAGS,
	readOwnFileCapped,
	syncDirectory,
	syncFile,
} from "./safe-files.js";
import { verifySession } from "./verify.js";

/** What the backup copied of one session. */
export interface SessionCopy {
	sessionId: string;
	/** Bytes of the log in the copy. */
	bytes: number;
	/** Records the copy holds. */
	records: number;
	/**
	 * Bytes at the end of the log left out: a line still being written (or a torn tail of a crash),
	 * which no writer had acknowledged.
	 */
	tailLeftOut: number;
	/** Turns accepted and not yet recorded (the turn journal) copied with it. */
	acceptedTurns: number;
	/**
	 * What `verify` reports of the copy, beyond the metadata the backup rebuilt: problems the source
	 * log itself holds (a damaged line in the middle), since the log is copied as it is.
	 */
	problems: VerifyProblem[];
	ok: boolean;
}

const COPY_CHUNK = 1 << 20;
const JOURNAL_DIR = "accepted";
const TORN_TAILS = "torn-tails.bin";
/** The journal's entries are small files (a user message); a larger one is not the store's. */
const MAX_JOURNAL_ENTRY = 64 << 20;
/** A copy being made: read back to look at its last line. */
const COPY_FLAGS = constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Copies one session of a live store without taking its lease (writers go on): its metadata.json,
 * then its turn journal, then its log up to the last whole line, then metadata rebuilt from the
 * copied log. The order is what makes the copy consistent:
 * - The log only grows (a writer cuts off only bytes it never acknowledged), so every record
 *   acknowledged before the copy started is in the copy, and the copy is a prefix of whole
 *   records: a line still being written is left out.
 * - The journal is read before the log: a turn whose records are not in the copied log was still
 *   noted when the journal was read (it is forgotten only after its records are written), so the
 *   copy either holds the turn or notes it (and the runtime records it as interrupted there).
 * - metadata.json is read first only for the creation facts of a session whose log holds none
 *   yet; the copy's metadata is derived from the copied log, so `verify` finds no drift.
 * Undefined when the session was deleted before it could be copied.
 */
export async function copySession(
	from: SessionPaths,
	to: SessionPaths,
	options: { maxLineBytes?: number } = {},
): Promise<SessionCopy | undefined> {
	assertRealDirectory(from.dir);
	const metadata = readOwnFileCapped(from.metadata, MAX_METADATA_BYTES);
	const journal = readJournal(join(from.dir, JOURNAL_DIR));
	let log: number | undefined;
	try {
		log = openOwnFile(from.log, READ_FLAGS);
	} catch (error) {
		if (errnoCode(error) !== "ENOENT") throw error;
		// A directory without a log: a session being deleted, or one whose creation did not finish.
		if (metadata.state !== "ok") return undefined;
	}
	try {
		makePrivateDir(to.dir);
		if (metadata.state === "ok") writeNewFile(to.metadata, metadata.bytes);
		for (const entry of journal) {
			makePrivateDir(join(to.dir, JOURNAL_DIR), { recursive: true });
			writeNewFile(join(to.dir, JOURNAL_DIR, entry.name), entry.bytes);
		}
		if (journal.length > 0) syncDirectory(join(to.dir, JOURNAL_DIR));
		const copied =
			log === undefined
				? { bytes: 0, tailLeftOut: 0 }
				: await copyLog(log, to.log, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
		copyWhole(join(from.dir, TORN_TAILS), join(to.dir, TORN_TAILS));
		const verified = await verifySession(to, { maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES });
		if (verified.rebuilt) writeMetadataFile(to, verified.rebuilt, true);
		syncDirectory(to.dir);
		// The metadata was just rebuilt from the copy: what is left is the log's own.
		const problems = verified.report.problems.filter((problem) => !problem.kind.startsWith("metadata_"));
		return {
			sessionId: from.id,
			...copied,
			records: verified.report.records,
			acceptedTurns: journal.length,
			problems,
			ok: verifyPasses(problems),
		};
	} finally {
		if (log !== undefined) closeSync(log);
	}
}

/**
 * Copies the log's bytes as they are when the copy starts, then cuts the copy after its last LF,
 * unless what follows is a whole record whose newline had not landed yet (readers take it as the
 * record it is, so the copy keeps it, with its LF).
 */
async function copyLog(
	source: number,
	target: string,
	maxLineBytes: number,
): Promise<Omit<SessionCopy, "sessionId" | "records" | "acceptedTurns" | "problems" | "ok">> {
	const size = fstatSync(source).size;
	const out = openOwnFile(target, COPY_FLAGS);
	try {
		const buffer = Buffer.allocUnsafe(Math.min(COPY_CHUNK, Math.max(1, size)));
		let position = 0;
		let wholeLines = 0;
		while (position < size) {
			const read = readSync(source, buffer, 0, Math.min(buffer.length, size - position), position);
			if (read === 0) break; // cut while we read: what was cut had not been acknowledged
			writeAll(out, buffer.subarray(0, read));
			const lastLf = buffer.lastIndexOf(10, read - 1);
			if (lastLf >= 0) wholeLines = position + lastLf + 1;
			position += read;
		}
		let bytes = wholeLines;
		const tail = position - wholeLines;
		if (tail > 0 && tail <= maxLineBytes) {
			const text = Buffer.allocUnsafe(tail);
			readSync(out, text, 0, tail, wholeLines);
			const raw = { text: text.toString("utf8"), line: 0, byteOffset: wholeLines, byteLength: tail, terminated: false };
			const outcome = classifyLine(raw) ?? (await classifyLineLoading(raw));
			if (outcome.kind === "record") {
				writeAll(out, Buffer.from("\n"));
				bytes = position + 1;
			}
		}
		if (bytes < position) ftruncateSync(out, bytes);
		syncFile(out);
		return { bytes, tailLeftOut: bytes < position ? position - bytes : 0 };
	} finally {
		closeSync(out);
	}
}

function readJournal(dir: string): Array<{ name: string; bytes: Buffer }> {
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch (error) {
		if (errnoCode(error) === "ENOENT" || errnoCode(error) === "ENOTDIR") return [];
		throw error;
	}
	const entries: Array<{ name: string; bytes: Buffer }> = [];
	// Only whole entries: the journal writes each under a temporary name and renames it into place.
	for (const name of names.filter((candidate) => candidate.endsWith(".json")).sort()) {
		const read = readOwnFileCapped(join(dir, name), MAX_JOURNAL_ENTRY);
		if (read.state === "ok") entries.push({ name, bytes: read.bytes });
	}
	return entries;
}

/** Copies a side file as it is (a missing one is nothing to copy). */
function copyWhole(from: string, to: string): void {
	const read = readOwnFileCapped(from, Number.MAX_SAFE_INTEGER);
	if (read.state === "ok") writeNewFile(to, read.bytes);
}

/** Writes a file that must not exist yet (0600), flushed to the disk. */
export function writeNewFile(path: string, bytes: Buffer): void {
	const fd = openOwnFile(path, CREATE_FLAGS);
	try {
		writeAll(fd, bytes);
		syncFile(fd);
	} finally {
		closeSync(fd);
	}
}

function writeAll(fd: number, bytes: Buffer): void {
	let written = 0;
	while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
}
