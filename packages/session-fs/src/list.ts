import { type Dirent, existsSync, lstatSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { isSessionId, type ListOptions, loadSchemaChecks, type SessionMetadata } from "@agent/session-format/reading";
import { decodeListCursor, encodeListCursor, listSearchMatches } from "@agent/session-format/store-kit";
import { errnoCode, invalidArgument, storageFailure } from "./errors.js";
import { yieldToEventLoop } from "./line-reader.js";
import { type DirectoryIdentity, ListedSession, newestFirst } from "./listed-session.js";
import type { MetadataCache } from "./metadata-cache.js";
import { currentMetadataChanges } from "./metadata-changes.js";
import { LOG_FILE, METADATA_FILE, metadataChangesPath, metadataFileIn, sessionsRoot } from "./paths.js";

/** How many metadata files are read between two turns given to the event loop. */
const FILES_BETWEEN_YIELDS = 256;

/**
 * Every session's metadata, read from metadata.json files only — never a log, so the cost
 * follows the number of sessions, not their size. A session whose metadata.json is missing or
 * damaged is handed to `rebuild` (which reads its log once and stores the result).
 *
 * Reads are synchronous, in slices with event-loop turns between them: on the machines measured,
 * 20,000 readFileSync calls took ~0.2 s where fs.promises with 32 in flight took ~2 s (each
 * promise call is a thread-pool round trip costing more than the read itself). Files unchanged
 * since the store (or, through the snapshot on disk, any process) last read them come from its
 * cache: one stat each, or none at all while the store's change mark says that no metadata.json
 * changed since a listing checked them all (metadata-changes.ts); and while the sessions
 * directory also has the identity it had then (inode, times, size, link count), no session
 * directory came or went either, and the directory is not even read. That catches one added,
 * removed or renamed by hand too.
 */
export async function readAllMetadata(
	home: string,
	cache: MetadataCache,
	rebuild: (id: string) => Promise<SessionMetadata | undefined>,
): Promise<ListedSession[]> {
	const root = sessionsRoot(home);
	// Both read before the directory and the files: a change this listing may miss is marked (or
	// changes the directory) after them.
	const changes = currentMetadataChanges(metadataChangesPath(home));
	const directory = directoryIdentity(root);
	if (directory === undefined) return [];
	const trust = cache.beginListing(changes, directory);
	// No metadata.json changed, and no session directory came or went: the sessions held.
	if (trust === "files-and-directory") return cache.heldSessions();
	const trusted = trust === "files";
	let entries: Dirent[];
	try {
		entries = readdirSync(root, { withFileTypes: true });
	} catch (error) {
		if (errnoCode(error) === "ENOENT") return [];
		throw storageFailure(`could not list ${root}`, error);
	}
	const out: ListedSession[] = [];
	const damaged: string[] = [];
	const seen = new Set<string>();
	let sinceYield = 0;
	for (const entry of entries) {
		if (!entry.isDirectory() || !isSessionId(entry.name)) continue;
		seen.add(entry.name);
		const session = (trusted && cache.held(entry.name)) || cache.read(metadataFileIn(root, entry.name), entry.name);
		if (session) out.push(session);
		else damaged.push(entry.name);
		if (++sinceYield >= FILES_BETWEEN_YIELDS) {
			sinceYield = 0;
			await yieldToEventLoop();
		}
	}
	cache.retain(seen);
	cache.endListing(changes, directory);
	cache.saveSnapshotSoon();
	// A file the hand check refused may still be valid (written by other code): the schema decides.
	if (damaged.length > 0) await loadSchemaChecks();
	for (const id of damaged) {
		const session = cache.read(metadataFileIn(root, id), id);
		if (session) out.push(session);
		else {
			const rebuilt = await rebuild(id);
			if (rebuilt) out.push(ListedSession.of(rebuilt));
		}
	}
	return out;
}

/** The sessions directory's identity; undefined when there is no directory. */
function directoryIdentity(root: string): DirectoryIdentity | undefined {
	try {
		const stat = statSync(root, { throwIfNoEntry: false });
		return stat && { ino: stat.ino, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, size: stat.size, nlink: stat.nlink };
	} catch (error) {
		throw storageFailure(`could not list ${root}`, error);
	}
}

/** True when the directory holds a session (a log or metadata); an empty one is being created or deleted. */
export function holdsSession(dir: string): boolean {
	return existsSync(join(dir, LOG_FILE)) || existsSync(join(dir, METADATA_FILE));
}

/** The sessions verify checks, in id order: every directory holding one, and a symbolic link in one's place. */
export function sessionDirsToCheck(home: string): string[] {
	const root = sessionsRoot(home);
	let names: string[];
	try {
		names = readdirSync(root);
	} catch {
		return [];
	}
	return names
		.filter(isSessionId)
		.sort()
		.filter((id) => {
			const dir = join(root, id);
			return (lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink() ?? false) || holdsSession(dir);
		});
}

function matches(session: ListedSession, options: ListOptions): boolean {
	const archived = options.archived ?? false;
	if (archived === false && session.archived) return false;
	if (archived === "only" && !session.archived) return false;
	// The other filters read the metadata, which a session from the snapshot parses only then.
	if (options.source !== undefined && session.metadata.source !== options.source) return false;
	if (options.identityKey !== undefined && session.metadata.identityKey !== options.identityKey) return false;
	if (options.cwd !== undefined && session.metadata.cwd !== options.cwd) return false;
	if (options.createdBy !== undefined && session.metadata.createdBy !== options.createdBy) return false;
	if (options.search !== undefined && options.search.length > 0) {
		if (!listSearchMatches(options.search, session.id, session.metadata.name)) return false;
	}
	return true;
}

/** A page of a listing: the sessions on it, and the cursor of the next page when there is one. */
export interface ListedPage {
	sessions: ListedSession[];
	nextCursor?: string;
}

/** Filters, sorts (S7.5: newest lastMessageAt first) and pages. */
export function pageOf(all: readonly ListedSession[], options: ListOptions): ListedPage {
	const limit = options.limit;
	if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
		throw invalidArgument(`limit must be a whole number >= 1, got ${limit}`);
	}
	const sorted = all.filter((session) => matches(session, options)).sort(newestFirst);
	let start = 0;
	if (options.cursor !== undefined) {
		const after = decodeListCursor(options.cursor);
		while (start < sorted.length) {
			const session = sorted[start] as ListedSession;
			if (session.time < after.t || (session.time === after.t && session.id < after.id)) break;
			start++;
		}
	}
	const selected = sorted.slice(start);
	if (limit === undefined || selected.length <= limit) return { sessions: selected };
	const sessions = selected.slice(0, limit);
	return { sessions, nextCursor: encodeListCursor((sessions[sessions.length - 1] as ListedSession).metadata) };
}
