import { renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type {
	ListJsonPage,
	ListOptions,
	ListPage,
	OpenedSession,
	OpenOptions,
	ReadOptions,
	SearchHit,
	SearchOptions,
	SessionLease,
	SessionMetadata,
	SessionStats,
	StoreChange,
	StoredRecord,
	StoreWatcher,
} from "@agent/session-format/reading";
import {
	type BackendJournal,
	type BackendWriter,
	cloneMetadata,
	type HeldSession,
	type LeaseWait,
	type LogCheck,
	type SessionBackend,
} from "@agent/session-format/store-kit";
import { acceptedTurns, forgetAcceptedTurn, noteAcceptedTurn } from "./accepted-turns.js";
import { errnoCode, PACKAGE, storageFailure } from "./errors.js";
import { keepFileSizeSignalHarmless } from "./file-size-signal.js";
import { holdsSession, type ListedPage, pageOf, readAllMetadata, sessionDirsToCheck } from "./list.js";
import type { ListedSession } from "./listed-session.js";
import { closeLogView, type LogView, openLogView, withLogView } from "./log-view.js";
import { MetadataCache } from "./metadata-cache.js";
import { type FileStoreOptions, type ResolvedOptions, resolveOptions } from "./options.js";
import { metadataSnapshotPath, type SessionPaths, sessionPaths, sessionsRoot } from "./paths.js";
import { type ReadContext, readAll, readFromSeq, tailRecords } from "./read-ops.js";
import { resumeSession } from "./resume.js";
import { makePrivateDir } from "./safe-files.js";
import { searchLogs } from "./search.js";
import { fillNewSession, makeSessionDir, makeSessionsRoot } from "./session-files.js";
import { watchStore } from "./store-watch.js";

/** The writing half (write-ops.ts), loaded by the first operation that writes or verifies. */
const writing = () => import("./write-ops.js");

/**
 * The filesystem SessionBackend: `<home>/sessions/<ULID>/session.jsonl` (the log) and
 * `metadata.json` (its cache), one writer per session across processes (a lock directory),
 * listing from metadata files only. FileSessionStore (store.ts) is the store shell over it.
 */
export class FileBackend implements SessionBackend {
	readonly name = PACKAGE;
	readonly home: string;
	readonly options: ResolvedOptions;
	private readonly metadataCache: MetadataCache;
	readonly journal: BackendJournal = {
		note: async (id, turn) => noteAcceptedTurn(this.pathsOf(id), turn, this.fsync),
		list: async (id) => acceptedTurns(this.pathsOf(id)),
		forget: async (id, turnId) => forgetAcceptedTurn(this.pathsOf(id), turnId),
	};

	constructor(options: FileStoreOptions) {
		this.options = resolveOptions(options);
		this.home = this.options.home;
		this.metadataCache = new MetadataCache(metadataSnapshotPath(this.home));
		keepFileSizeSignalHarmless();
	}

	/** The directory and files of a session (validates the id; nothing else becomes a path). */
	pathsOf(id: string): SessionPaths {
		return sessionPaths(this.home, id);
	}

	now(): Date {
		return this.options.now();
	}

	describe(): string {
		return this.home;
	}

	async create(make: (id: string) => SessionMetadata): Promise<SessionMetadata> {
		const paths = makeSessionDir(this.home);
		const metadata = make(paths.id);
		fillNewSession(paths, metadata, this.options);
		return metadata;
	}

	async materialize(held: HeldSession): Promise<void> {
		const { writeDeferredSession } = await writing();
		writeDeferredSession(this.pathsOf(held.metadata.id), held, this.options);
	}

	open(id: string, options: OpenOptions): Promise<OpenedSession> {
		return this.view(id, (view) =>
			resumeSession(view, options, { ...this.readContext(id), chunkBytes: this.options.backwardChunkBytes }),
		);
	}

	read(id: string, fromSeq: number, options: ReadOptions): AsyncIterable<StoredRecord> {
		const paths = this.pathsOf(id);
		const context = this.readContext(id);
		const storeOptions = this.options;
		return (async function* () {
			const view = await openLogView(paths, storeOptions);
			try {
				options.signal?.throwIfAborted();
				yield* fromSeq <= 1 ? readAll(view, options, context) : readFromSeq(view, fromSeq, options, context);
			} finally {
				closeLogView(view);
			}
		})();
	}

	tail(id: string, n: number, options: ReadOptions): Promise<StoredRecord[]> {
		return this.view(id, (view) => tailRecords(view, n, options, this.readContext(id)));
	}

	async list(options: ListOptions): Promise<ListPage> {
		const page = await this.listed(options);
		return { ...page, sessions: page.sessions.map((session) => session.copy()) };
	}

	async listAsJson(options: ListOptions): Promise<ListJsonPage> {
		const page = await this.listed(options);
		return { ...page, sessions: page.sessions.map((session) => session.jsonBytes()) };
	}

	async summarize(): Promise<SessionStats> {
		const every = pageOf(await this.listedAll(), { archived: true }).sessions;
		return structuredClone(this.metadataCache.summaryOf(every));
	}

	metadata(id: string): Promise<SessionMetadata> {
		return this.view(id, async (view) => cloneMetadata(view.state.metadata));
	}

	async search(query: string, options: SearchOptions): Promise<SearchHit[]> {
		const listing: ListOptions = { archived: options.archived ?? false };
		if (options.cwd !== undefined) listing.cwd = options.cwd;
		if (options.createdBy !== undefined) listing.createdBy = options.createdBy;
		return searchLogs(query, options, {
			sessions: (await this.list(listing)).sessions,
			paths: (id) => this.pathsOf(id),
			maxLineBytes: this.options.maxLineBytes,
			chunkBytes: this.options.forwardChunkBytes,
		});
	}

	async lease(id: string, wait: LeaseWait): Promise<SessionLease> {
		const { acquireLease } = await writing();
		return acquireLease(this.pathsOf(id), this.options, wait);
	}

	async write<T>(id: string, wait: LeaseWait, work: (writer: BackendWriter) => Promise<T>): Promise<T> {
		const { withLease } = await writing();
		return withLease(this.pathsOf(id), this.options, wait, work);
	}

	async fork(id: string, options: { atSeq?: number; name?: string }): Promise<SessionMetadata> {
		const { forkSession } = await writing();
		return this.view(id, (view) => forkSession(view, options, this.options, this.readContext(id).where));
	}

	/** Under the lease: the directory is renamed away first, so readers see the session whole or not at all. */
	async delete(id: string): Promise<void> {
		const paths = this.pathsOf(id);
		const trash = join(sessionsRoot(this.home), `.deleted-${id}-${process.pid}-${Date.now()}`);
		const { acquireLease } = await writing();
		const lease = await acquireLease(paths, this.options, {});
		try {
			await lease.run(async () => {
				try {
					renameSync(paths.dir, trash);
				} catch (error) {
					throw storageFailure(`could not delete session ${id} (${paths.dir})`, error);
				}
			});
		} finally {
			await lease.release();
		}
		rmSync(trash, { recursive: true, force: true });
	}

	async adopt(id: string, facts: SessionMetadata): Promise<number> {
		const paths = this.pathsOf(id);
		if (holdsSession(paths.dir)) return (await this.metadata(id)).lastSeq;
		makeSessionsRoot(this.home);
		try {
			makePrivateDir(paths.dir);
		} catch (error) {
			if (errnoCode(error) === "EEXIST") return (await this.metadata(id)).lastSeq;
			throw storageFailure(`could not create the session directory ${paths.dir}`, error);
		}
		fillNewSession(paths, { ...cloneMetadata(facts), id, lastSeq: 0, logBytes: 0 }, this.options);
		return 0;
	}

	async check(id: string): Promise<LogCheck> {
		const { verifySession } = await writing();
		return verifySession(this.pathsOf(id), this.options);
	}

	/** Every session directory (a symbolic link in its place too: verify reports it), in id order. */
	async checkedIds(): Promise<string[]> {
		return sessionDirsToCheck(this.home);
	}

	/** Reports changes to the store's sessions made by any process (store-watch.ts). */
	watch(onChange: (change: StoreChange) => void): Promise<StoreWatcher> {
		return watchStore({ home: this.home, listAll: () => this.listedAll() }, onChange);
	}

	private get fsync(): boolean {
		return this.options.durability === "fsync";
	}

	private async listed(options: ListOptions): Promise<ListedPage> {
		return pageOf(await this.listedAll(), options);
	}

	private listedAll(): Promise<ListedSession[]> {
		return readAllMetadata(this.home, this.metadataCache, async (id) => {
			const paths = this.pathsOf(id);
			if (!holdsSession(paths.dir)) return undefined;
			try {
				return await withLogView(paths, this.options, async (view) => view.state.metadata);
			} catch {
				return undefined;
			}
		});
	}

	private view<T>(id: string, work: (view: LogView) => Promise<T>): Promise<T> {
		return withLogView(this.pathsOf(id), this.options, work);
	}

	private readContext(id: string): ReadContext {
		return {
			where: `${PACKAGE}: session ${id} (${this.pathsOf(id).log})`,
			forwardChunkBytes: this.options.forwardChunkBytes,
			backwardChunkBytes: this.options.backwardChunkBytes,
			maxLineBytes: this.options.maxLineBytes,
		};
	}
}
