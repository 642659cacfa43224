import { closeSync, lstatSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
	type AcceptedTurn,
	type AppendOptions,
	type AppendResult,
	type CreateSessionOptions,
	checkCreateOptions,
	checkIdentityKey,
	checkLabel,
	checkListOptions,
	checkName,
	checkSearchArgs,
	checkSeconds,
	cloneMetadata,
	DeferredSessions,
	type ForkOptions,
	isSideRecord,
	type JournaledTurn,
	type ListJsonPage,
	type ListOptions,
	type ListPage,
	newMetadata,
	newSessionId,
	type OpenedSession,
	type OpenOptions,
	openInMemory,
	type ReadOptions,
	type RecordInput,
	type SearchHit,
	type SearchOptions,
	type SeqGap,
	type SessionImportTarget,
	type SessionLease,
	type SessionMetadata,
	type SessionStats,
	type SessionStore,
	type StoreChange,
	type StoredRecord,
	type StoreWatcher,
	truncateText,
	type VerifyReport,
	verifyPasses,
} from "@agent/session-format/reading";
import { acceptedTurns, forgetAcceptedTurn, noteAcceptedTurn } from "./accepted-turns.js";
import { DEFAULT_BACKWARD_CHUNK } from "./backward-reader.js";
import { iterate } from "./deferred-reads.js";
import { errnoCode, invalidArgument, PREFIX, storageFailure } from "./errors.js";
import { keepFileSizeSignalHarmless } from "./file-size-signal.js";
import { DEFAULT_FORWARD_CHUNK, DEFAULT_MAX_LINE_BYTES } from "./line-reader.js";
import { holdsSession, type ListedPage, pageOf, readAllMetadata } from "./list.js";
import type { ListedSession } from "./listed-session.js";
import { closeLogView, openLogView, withLogView } from "./log-view.js";
import { MetadataCache } from "./metadata-cache.js";
import { writeMetadataFile } from "./metadata-file.js";
import { acquireMutex } from "./mutex.js";
import { DEFAULT_STALE_LEASE_MS, defaultWaitMs, type FileStoreOptions, type ResolvedOptions } from "./options.js";
import { metadataSnapshotPath, resolveHome, type SessionPaths, sessionPaths, sessionsRoot } from "./paths.js";
import { type ReadContext, readAll, readFromSeq, tailRecords } from "./read-ops.js";
import { resumeSession } from "./resume.js";
import { makePrivateDir } from "./safe-files.js";
import { searchLogs } from "./search.js";
import { createLog, makeSessionDir, makeSessionsRoot, syncNewDirectory } from "./session-files.js";
import { watchStore } from "./store-watch.js";

/** The writing half (write-ops.ts), loaded by the first operation that writes or verifies. */
const writing = () => import("./write-ops.js");

function isSymbolicLink(path: string): boolean {
	return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
}

/** The filesystem SessionStore: `<home>/sessions/<ULID>/session.jsonl` + `metadata.json`. */
export class FileSessionStore implements SessionStore, SessionImportTarget {
	readonly home: string;
	private readonly options: ResolvedOptions;
	private readonly deferred = new DeferredSessions();
	private readonly metadataCache: MetadataCache;

	constructor(options: FileStoreOptions = {}) {
		const durability = options.durability ?? "write";
		if (durability !== "write" && durability !== "fsync") {
			throw invalidArgument(`durability must be "write" or "fsync", got ${JSON.stringify(durability)}`);
		}
		this.home = resolveHome(options.home);
		this.metadataCache = new MetadataCache(metadataSnapshotPath(this.home));
		keepFileSizeSignalHarmless();
		const staleLeaseMs = options.staleLeaseMs ?? DEFAULT_STALE_LEASE_MS;
		this.options = {
			home: this.home,
			durability,
			staleLeaseMs,
			waitMs: options.waitMs ?? defaultWaitMs(staleLeaseMs),
			metadataFlushMs: options.metadataFlushMs ?? 100,
			backwardChunkBytes: options.backwardChunkBytes ?? DEFAULT_BACKWARD_CHUNK,
			forwardChunkBytes: options.forwardChunkBytes ?? DEFAULT_FORWARD_CHUNK,
			maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
			now: options.now ?? (() => new Date()),
		};
	}

	/** The directory and files of a session (validates the id; nothing else becomes a path). */
	pathsOf(id: string): SessionPaths {
		return sessionPaths(this.home, id);
	}

	async create(options: CreateSessionOptions = {}): Promise<SessionMetadata> {
		checkCreateOptions(options);
		const now = this.options.now();
		if (options.deferred) {
			const metadata = newMetadata(newSessionId(), options, now);
			this.deferred.add(metadata);
			return cloneMetadata(metadata);
		}
		const paths = makeSessionDir(this.home);
		const metadata = newMetadata(paths.id, options, now);
		try {
			closeSync(createLog(paths));
			writeMetadataFile(paths, metadata, this.options.durability === "fsync");
			syncNewDirectory(paths, this.home, this.options.durability);
		} catch (error) {
			rmSync(paths.dir, { recursive: true, force: true });
			throw storageFailure(
				`could not create session ${paths.id} in ${paths.dir} (${(error as Error).message}); nothing of it was kept. Free disk space or fix the error and retry`,
				error,
			);
		}
		return cloneMetadata(metadata);
	}

	async open(id: string, options: OpenOptions = {}): Promise<OpenedSession> {
		const paths = this.pathsOf(id);
		const pending = this.deferred.get(id);
		if (pending) return openInMemory(pending.metadata, pending.records, options);
		return withLogView(paths, this.options, (view) =>
			resumeSession(view, options, {
				chunkBytes: this.options.backwardChunkBytes,
				maxLineBytes: this.options.maxLineBytes,
				where: this.where(id),
			}),
		);
	}

	async append(id: string, records: readonly RecordInput[], options: AppendOptions = {}): Promise<AppendResult> {
		const paths = this.pathsOf(id);
		if (this.deferred.has(id)) {
			const { prepareBatch } = await writing();
			const release = await acquireMutex(paths.dir, options.waitMs ?? this.options.waitMs, options.signal);
			try {
				if (this.deferred.has(id)) {
					const now = this.options.now().toISOString();
					const held = this.deferred.hold(id, (metadata) => prepareBatch(metadata, records, now));
					if (held.firstReply) await this.writeDeferred(paths);
					return { records: held.records, metadata: held.metadata };
				}
			} finally {
				release();
			}
		}
		const { withLease } = await writing();
		return withLease(paths, this.options, options, (writer) => writer.append(records));
	}

	read(id: string, options: ReadOptions = {}): AsyncIterable<StoredRecord> {
		const paths = this.pathsOf(id);
		return this.streamed(paths, options, (view, context) => readAll(view, options, context));
	}

	readFrom(id: string, fromSeq: number, options: ReadOptions = {}): AsyncIterable<StoredRecord> {
		const paths = this.pathsOf(id);
		if (!Number.isInteger(fromSeq)) throw invalidArgument(`readFrom needs a whole seq, got ${fromSeq}`);
		return this.streamed(paths, options, (view, context) => readFromSeq(view, fromSeq, options, context), fromSeq);
	}

	async tail(id: string, n: number, options: ReadOptions = {}): Promise<StoredRecord[]> {
		const paths = this.pathsOf(id);
		if (!Number.isInteger(n) || n < 0) throw invalidArgument(`tail needs a whole number of records >= 0, got ${n}`);
		const pending = this.deferred.get(id);
		if (pending) return n === 0 ? [] : pending.records.slice(-n);
		return withLogView(paths, this.options, (view) => tailRecords(view, n, options, this.readContext(id)));
	}

	async list(options: ListOptions = {}): Promise<ListPage> {
		const page = await this.listed(options);
		return { ...page, sessions: page.sessions.map((session) => session.copy()) };
	}

	async listAsJson(options: ListOptions = {}): Promise<ListJsonPage> {
		const page = await this.listed(options);
		return { ...page, sessions: page.sessions.map((session) => session.jsonBytes()) };
	}

	async summarize(): Promise<SessionStats> {
		const every = pageOf(await this.listedAll(), { archived: true }).sessions;
		return structuredClone(this.metadataCache.summaryOf(every));
	}

	private async listed(options: ListOptions): Promise<ListedPage> {
		checkListOptions(options);
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

	/** Reports changes to the store's sessions made by any process (store-watch.ts). */
	watch(onChange: (change: StoreChange) => void): Promise<StoreWatcher> {
		return watchStore({ home: this.home, listAll: () => this.listedAll() }, onChange);
	}

	async metadata(id: string): Promise<SessionMetadata> {
		const paths = this.pathsOf(id);
		const pending = this.deferred.get(id);
		if (pending) return pending.metadata;
		return withLogView(paths, this.options, async (view) => cloneMetadata(view.state.metadata));
	}

	async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
		checkSearchArgs(query, options);
		const listing: ListOptions = { archived: options.archived ?? false };
		if (options.cwd !== undefined) listing.cwd = options.cwd;
		if (options.createdBy !== undefined) listing.createdBy = options.createdBy;
		const { sessions } = await this.list(listing);
		return searchLogs(query, options, {
			sessions,
			paths: (id) => this.pathsOf(id),
			pending: (id) => this.deferred.get(id)?.records,
			maxLineBytes: this.options.maxLineBytes,
			chunkBytes: this.options.forwardChunkBytes,
		});
	}

	async lease(id: string, options: { waitMs?: number; signal?: AbortSignal } = {}): Promise<SessionLease> {
		const paths = await this.materialized(id);
		const { acquireLease } = await writing();
		return acquireLease(paths, this.options, options);
	}

	async fork(id: string, options: ForkOptions = {}): Promise<SessionMetadata> {
		const paths = await this.materialized(id);
		if (options.name !== undefined) checkName(options.name);
		const { forkSession } = await writing();
		return withLogView(paths, this.options, (view) => forkSession(view, options, this.options, this.where(id)));
	}

	async branch(id: string, atSeq: number): Promise<SessionMetadata> {
		const paths = await this.materialized(id);
		const { withLease } = await writing();
		const result = await withLease(paths, this.options, {}, async (writer) => {
			const lastSeq = writer.current.lastSeq;
			if (!Number.isInteger(atSeq) || atSeq < 1 || atSeq > lastSeq) {
				throw invalidArgument(
					`cannot branch session ${id} at seq ${atSeq}: it holds seqs 1..${lastSeq}; pick one of those`,
				);
			}
			const target = await writer.findRecord(atSeq);
			if (!target)
				throw invalidArgument(`cannot branch session ${id} at seq ${atSeq}: no readable record has that seq`);
			if (isSideRecord(target)) {
				throw invalidArgument(
					`cannot branch session ${id} at seq ${atSeq}: it is a ${target.recordType} record, which belongs to no branch; pick a message`,
				);
			}
			if (atSeq === (writer.current.leafSeq ?? lastSeq))
				return { records: [], metadata: cloneMetadata(writer.current) };
			return writer.append([{ recordType: "leaf_change", parentSeq: atSeq }]);
		});
		return result.metadata;
	}

	async rename(id: string, name: string): Promise<SessionMetadata> {
		checkName(name);
		return (await this.appendOne(id, { recordType: "session_info", name })).metadata;
	}

	async label(id: string, targetSeq: number, label: string): Promise<SessionMetadata> {
		checkLabel(label);
		const paths = await this.materialized(id);
		const { withLease } = await writing();
		const result = await withLease(paths, this.options, {}, async (writer) => {
			const lastSeq = writer.current.lastSeq;
			if (!Number.isInteger(targetSeq) || targetSeq < 1 || targetSeq > lastSeq) {
				throw invalidArgument(`cannot label seq ${targetSeq} of session ${id}: it holds seqs 1..${lastSeq}`);
			}
			return writer.append([{ recordType: "label", targetSeq, label }]);
		});
		return result.metadata;
	}

	async archive(id: string): Promise<SessionMetadata> {
		return this.appendUnless(id, (metadata) => metadata.archivedAt !== undefined, {
			recordType: "archive_change",
			archived: true,
		});
	}

	async unarchive(id: string): Promise<SessionMetadata> {
		return this.appendUnless(id, (metadata) => metadata.archivedAt === undefined, {
			recordType: "archive_change",
			archived: false,
		});
	}

	async addUptime(id: string, seconds: number): Promise<SessionMetadata> {
		checkSeconds(seconds);
		return this.appendUnless(id, () => seconds === 0, { recordType: "uptime", seconds });
	}

	/** SessionImportTarget: session `id` with these creation facts, unless it exists; its last seq. */
	async adoptSession(id: string, facts: SessionMetadata): Promise<number> {
		const paths = this.pathsOf(id);
		if (holdsSession(paths.dir)) return (await this.metadata(id)).lastSeq;
		makeSessionsRoot(this.home);
		try {
			makePrivateDir(paths.dir);
		} catch (error) {
			if (errnoCode(error) === "EEXIST") return (await this.metadata(id)).lastSeq;
			throw storageFailure(`could not create the session directory ${paths.dir}`, error);
		}
		const metadata = { ...cloneMetadata(facts), id, lastSeq: 0, logBytes: 0 };
		try {
			closeSync(createLog(paths));
			writeMetadataFile(paths, metadata, this.options.durability === "fsync");
			syncNewDirectory(paths, this.home, this.options.durability);
		} catch (error) {
			rmSync(paths.dir, { recursive: true, force: true });
			throw storageFailure(`could not create session ${id} in ${paths.dir}`, error);
		}
		return 0;
	}

	/** SessionImportTarget: records exactly as given, under the lease; their seqs continue the log. */
	async appendExact(
		id: string,
		records: readonly StoredRecord[],
		options: { gaps?: readonly SeqGap[] } = {},
	): Promise<void> {
		const paths = await this.materialized(id);
		const { withLease } = await writing();
		await withLease(paths, this.options, {}, (writer) => writer.appendExact(records, options.gaps));
	}

	/** Deletes the session under its lease: the directory is renamed away first, so readers see it whole or not at all. */
	async delete(id: string): Promise<void> {
		const paths = this.pathsOf(id);
		if (this.deferred.delete(id)) return;
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

	async findByIdentity(identityKey: string): Promise<SessionMetadata | undefined> {
		checkIdentityKey(identityKey);
		return (await this.list({ identityKey, limit: 1 })).sessions[0];
	}

	/** The turn journal (accepted-turns.ts); a deferred session, which keeps nothing before its first reply, notes nothing. */
	async noteAcceptedTurn(id: string, turn: AcceptedTurn): Promise<void> {
		const paths = this.pathsOf(id);
		if (!this.deferred.has(id)) noteAcceptedTurn(paths, turn, this.options.durability === "fsync");
	}

	async acceptedTurns(id: string): Promise<JournaledTurn[]> {
		return acceptedTurns(this.pathsOf(id));
	}

	async forgetAcceptedTurn(id: string, turnId: string): Promise<void> {
		forgetAcceptedTurn(this.pathsOf(id), turnId);
	}

	async verify(id?: string): Promise<VerifyReport[]> {
		if (id !== undefined) return [await this.verifyOne(id)];
		const reports: VerifyReport[] = [];
		for (const sessionId of this.sessionIdsOnDisk()) {
			const paths = this.pathsOf(sessionId);
			if (!isSymbolicLink(paths.dir) && !holdsSession(paths.dir)) continue;
			reports.push(await this.verifyOne(sessionId));
		}
		return reports;
	}

	/**
	 * Under the lease (whose writer cuts a torn tail off first): acknowledges each damaged line in
	 * the middle of the log with a damage_ack record, and rebuilds metadata.json from the log. The
	 * log is only appended to. Verify passes afterwards unless something else is wrong.
	 */
	async repair(id: string): Promise<VerifyReport> {
		const paths = await this.materialized(id);
		const { verifySession, withLease } = await writing();
		return withLease(paths, this.options, {}, async (writer) => {
			const first = await verifySession(paths, this.verifyOptions());
			const acks = first.unacknowledged.map(
				(line): RecordInput => ({
					recordType: "damage_ack",
					line: line.line,
					byteOffset: line.byteOffset,
					reason: truncateText(line.reason, 500),
					...(line.seqs ? { seqs: line.seqs } : {}),
				}),
			);
			if (acks.length > 0) await writer.append(acks);
			const outcome = acks.length > 0 ? await verifySession(paths, this.verifyOptions()) : first;
			if (outcome.rebuilt) writer.replaceMetadata(outcome.rebuilt);
			const report: VerifyReport = { ...outcome.report, repaired: true };
			if (acks.length > 0) report.acknowledged = acks.length;
			// What repair fixes (the metadata) no longer counts against it.
			report.problems = report.problems.filter((problem) => !problem.kind.startsWith("metadata_"));
			report.ok = verifyPasses(report.problems);
			return report;
		});
	}

	private async verifyOne(id: string): Promise<VerifyReport> {
		const paths = this.pathsOf(id);
		const pending = this.deferred.get(id);
		if (pending) return { sessionId: id, ok: true, problems: [], records: pending.records.length, bytes: 0 };
		const { verifySession } = await writing();
		return (await verifySession(paths, this.verifyOptions())).report;
	}

	private verifyOptions(): { chunkBytes: number; maxLineBytes: number } {
		return { chunkBytes: this.options.forwardChunkBytes, maxLineBytes: this.options.maxLineBytes };
	}

	private sessionIdsOnDisk(): string[] {
		try {
			return readdirSync(sessionsRoot(this.home))
				.filter((name) => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(name))
				.sort();
		} catch {
			return [];
		}
	}

	private async appendOne(id: string, record: RecordInput): Promise<AppendResult> {
		const paths = await this.materialized(id);
		const { withLease } = await writing();
		return withLease(paths, this.options, {}, (writer) => writer.append([record]));
	}

	/** Appends `record` under the lease unless `already` says the log says so already. */
	private async appendUnless(
		id: string,
		already: (metadata: SessionMetadata) => boolean,
		record: RecordInput,
	): Promise<SessionMetadata> {
		const paths = await this.materialized(id);
		const { withLease } = await writing();
		return withLease(paths, this.options, {}, async (writer) =>
			already(writer.current) ? cloneMetadata(writer.current) : (await writer.append([record])).metadata,
		);
	}

	/** Writes a deferred session out as it stands; it is then an ordinary session. */
	private async writeDeferred(paths: SessionPaths): Promise<void> {
		const { writeDeferredSession } = await writing();
		const held = this.deferred.take(paths.id);
		if (!held) return;
		try {
			writeDeferredSession(paths, held, this.options);
		} catch (error) {
			this.deferred.restore(held);
			throw error;
		}
	}

	/** The session's paths, after writing it out if it was deferred (every operation but append and reads needs files). */
	private async materialized(id: string): Promise<SessionPaths> {
		const paths = this.pathsOf(id);
		if (!this.deferred.has(id)) return paths;
		const release = await acquireMutex(paths.dir, this.options.waitMs);
		try {
			await this.writeDeferred(paths);
		} finally {
			release();
		}
		return paths;
	}

	private streamed(
		paths: SessionPaths,
		options: ReadOptions,
		read: (view: Awaited<ReturnType<typeof openLogView>>, context: ReadContext) => AsyncIterable<StoredRecord>,
		fromSeq = 1,
	): AsyncIterable<StoredRecord> {
		const pending = this.deferred.get(paths.id);
		if (pending) return iterate(pending.records.filter((record) => record.seq >= fromSeq));
		const context = this.readContext(paths.id);
		const storeOptions = this.options;
		return (async function* () {
			const view = await openLogView(paths, storeOptions);
			try {
				options.signal?.throwIfAborted();
				yield* read(view, context);
			} finally {
				closeLogView(view);
			}
		})();
	}

	private readContext(id: string): ReadContext {
		return {
			where: this.where(id),
			forwardChunkBytes: this.options.forwardChunkBytes,
			backwardChunkBytes: this.options.backwardChunkBytes,
			maxLineBytes: this.options.maxLineBytes,
		};
	}

	private where(id: string): string {
		return `${PREFIX} session ${id} (${this.pathsOf(id).log})`;
	}
}

/** The filesystem store; see FileStoreOptions. */
export function createFileStore(options: FileStoreOptions = {}): FileSessionStore {
	return new FileSessionStore(options);
}
