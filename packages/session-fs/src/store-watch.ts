import { existsSync, type FSWatcher, watch as fsWatch, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import type { StoreChange, StoreWatcher } from "@agent/session-format/reading";
import type { ListedSession } from "./listed-session.js";
import { currentMetadataChanges } from "./metadata-changes.js";
import { metadataChangesPath, sessionsRoot } from "./paths.js";
import { makePrivateDir } from "./safe-files.js";

/** How often the change mark and the sessions directory are looked at, should no watch event come. */
const DEFAULT_POLL_MS = 1000;
/** Events that come together (a turn's appends) are looked at once. */
const SETTLE_MS = 30;
/**
 * At most one listing this often, however busy the store: each costs a stat per session, and a
 * process writing thousands of records a second (an import, a migration) must not make the
 * watching server spend its time listing.
 */
const MIN_SCAN_GAP_MS = 250;

export interface StoreWatchOptions {
	/** The store's home. */
	home: string;
	/** Every session's metadata: the store's listing (metadata files only, cached). */
	listAll: () => Promise<ListedSession[]>;
	pollMs?: number;
}

/**
 * The file store's `watch`. Every writer, in any process, replaces the store's change mark after
 * it changed a metadata.json (metadata-changes.ts), and a session directory that comes or goes
 * changes the sessions directory: the watch follows both (an inotify-style watch, with a poll
 * behind it for file systems without one), and on a change lists every session's metadata (one
 * stat each; the files that changed are read) and reports the sessions whose metadata differs
 * from the last listing's. Its own listings and snapshot writes change neither.
 */
export async function watchStore(
	options: StoreWatchOptions,
	onChange: (change: StoreChange) => void,
): Promise<StoreWatcher> {
	const { home } = options;
	const markPath = metadataChangesPath(home);
	ensureMark(markPath);
	let known = new Map((await options.listAll()).map((session) => [session.id, session]));
	let token = currentMetadataChanges(markPath);
	let directory = directoryState(sessionsRoot(home));
	let closed = false;
	let scanning: Promise<void> | undefined;
	let again = false;
	let timer: ReturnType<typeof setTimeout> | undefined;
	let lastScan = 0;

	const scan = async (): Promise<void> => {
		lastScan = Date.now();
		token = currentMetadataChanges(markPath);
		directory = directoryState(sessionsRoot(home));
		const listed = await options.listAll();
		if (closed) return;
		const next = new Map(listed.map((session) => [session.id, session]));
		for (const [id, session] of next) {
			const before = known.get(id);
			if (before === session || before?.json() === session.json()) continue;
			onChange({ type: "changed", sessionId: id, metadata: session.copy(), created: before === undefined });
		}
		for (const id of known.keys()) if (!next.has(id)) onChange({ type: "deleted", sessionId: id });
		known = next;
	};
	const run = () => {
		timer = undefined;
		if (closed) return;
		if (scanning) {
			again = true;
			return;
		}
		scanning = scan()
			.catch(() => undefined)
			.finally(() => {
				scanning = undefined;
				if (again && !closed) {
					again = false;
					schedule();
				}
			});
	};
	const schedule = () => {
		if (closed || timer !== undefined) return;
		timer = setTimeout(run, Math.max(SETTLE_MS, lastScan + MIN_SCAN_GAP_MS - Date.now()));
	};

	const watchers = new Map<string, FSWatcher>();
	const markName = basename(markPath);
	const follow = (dir: string, accept: (name: string | null) => boolean) => {
		if (watchers.has(dir) || !existsSync(dir)) return;
		try {
			const watcher = fsWatch(dir, { persistent: false }, (_event, name) => {
				if (accept(name === null ? null : String(name))) schedule();
			});
			// Gone (the directory was removed): the poll looks again, and follows it once it is back.
			watcher.on("error", () => {
				watcher.close();
				watchers.delete(dir);
			});
			watchers.set(dir, watcher);
		} catch {
			// No watch here (too many watches, an unsupported file system): the poll finds the changes.
		}
	};
	const followAll = () => {
		follow(dirname(markPath), (name) => name === null || name === markName);
		follow(sessionsRoot(home), () => true);
	};
	followAll();
	const poll = setInterval(() => {
		followAll();
		if (currentMetadataChanges(markPath) !== token || directoryState(sessionsRoot(home)) !== directory) schedule();
	}, options.pollMs ?? DEFAULT_POLL_MS);
	poll.unref();

	return {
		async close() {
			closed = true;
			clearInterval(poll);
			if (timer) clearTimeout(timer);
			for (const watcher of watchers.values()) watcher.close();
			await scanning;
		},
	};
}

/**
 * Writers mark changes only where the cache directory exists (no listing to invalidate
 * otherwise): made here, with a mark in it, so that every write from now on is marked.
 */
function ensureMark(markPath: string): void {
	const dir = dirname(markPath);
	try {
		if (existsSync(dirname(dir)) && !existsSync(dir)) makePrivateDir(dir);
	} catch {
		// Another process made it just now, or the home is read-only: the poll still sees directories change.
	}
	currentMetadataChanges(markPath);
}

/** The sessions directory's identity as one string ("" when there is none): it changes when a session comes or goes. */
function directoryState(root: string): string {
	try {
		const stat = statSync(root, { throwIfNoEntry: false });
		return stat ? `${stat.ino}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.nlink}` : "";
	} catch {
		return "";
	}
}
