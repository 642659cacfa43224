import { DeferredSessions } from "./deferred-sessions.js";
import { assertSessionId, newSessionId } from "./ids.js";
import type { SessionMetadata } from "./metadata.js";
import { cloneMetadata, newMetadata } from "./metadata-derive.js";
import { openInMemory } from "./open-path.js";
import type { RecordInput, StoredRecord } from "./records.js";
import type { BackendWriter, LeaseWait, SessionBackend } from "./session-backend.js";
import { type SessionStats, summarizeSessions } from "./stats.js";
import {
	checkCreateOptions,
	checkIdentityKey,
	checkLabel,
	checkListOptions,
	checkName,
	checkSearchArgs,
	checkSeconds,
} from "./store-args.js";
import { type Capabilities, capabilitiesOf } from "./store-capabilities.js";
import type {
	AppendOptions,
	AppendResult,
	CreateSessionOptions,
	ForkOptions,
	ListJsonPage,
	ListOptions,
	ListPage,
	OpenedSession,
	OpenOptions,
	ReadOptions,
	SearchOptions,
	SeqGap,
	SessionImportTarget,
	SessionLease,
	SessionStore,
	VerifyReport,
} from "./store-contract.js";
import { type StoreErrors, storeErrors } from "./store-errors.js";
import { appendUnless, iterate, labelRecord, moveLeaf, repairLog } from "./store-writes.js";
import type { SearchHit } from "./text-search.js";

/** The record schemas' half (prepareBatch validates with zod): loaded by the first deferred append only. */
const batch = () => import("./batch.js");
const utf8 = new TextEncoder();

/** A whole SessionStore made of a narrow backend (see SessionBackend); what it adds is the same for every backend. */
export function createSessionStore(backend: SessionBackend): SessionShell {
	return new SessionShell(backend);
}

/**
 * The store shell: everything of the SessionStore contract that does not depend on where bytes
 * live, written once (argument checks, deferred sessions, branch, label, rename, archive, uptime,
 * identity look-up, repair, letting go on close), over a SessionBackend. A backend package may
 * extend it to add what its users need (the file store's `home`, PostgreSQL's `pool`).
 */
export class SessionShell implements SessionStore, SessionImportTarget {
	protected readonly backend: SessionBackend;
	protected readonly errors: StoreErrors;
	private readonly deferred = new DeferredSessions();
	/** Deferred sessions being written out: what needs them stored waits for it. */
	private readonly writingOut = new Map<string, Promise<void>>();
	/** What close lets go of: leases given out and not released, watches and relays running. */
	private readonly held = new Set<{ release(): Promise<void> }>();
	private closing: Promise<void> | undefined;

	// Present only where the backend has what they need (store-capabilities.ts).
	declare readonly watch?: Capabilities["watch"];
	declare readonly noteAcceptedTurn?: Capabilities["noteAcceptedTurn"];
	declare readonly acceptedTurns?: Capabilities["acceptedTurns"];
	declare readonly forgetAcceptedTurn?: Capabilities["forgetAcceptedTurn"];
	declare readonly claimJobTick?: Capabilities["claimJobTick"];
	declare readonly relayEvents?: Capabilities["relayEvents"];

	constructor(backend: SessionBackend) {
		this.backend = backend;
		this.errors = storeErrors(backend.name);
		// Capabilities are members only where the backend has them: callers test for them, never for a class.
		Object.assign(
			this,
			capabilitiesOf(backend, {
				deferred: (id) => this.deferred.has(id),
				settled: (id) => this.settled(id),
				holdUntilClosed: (running) => this.holdUntilClosed(running),
			}),
		);
	}

	async create(options: CreateSessionOptions = {}): Promise<SessionMetadata> {
		checkCreateOptions(options);
		const now = this.backend.now();
		if (options.deferred) {
			const metadata = newMetadata(newSessionId(), options, now);
			this.deferred.add(metadata);
			return cloneMetadata(metadata);
		}
		return cloneMetadata(await this.backend.create((id) => newMetadata(id, options, now)));
	}

	async open(id: string, options: OpenOptions = {}): Promise<OpenedSession> {
		assertSessionId(id);
		const pending = this.deferred.get(id);
		if (pending) return openInMemory(pending.metadata, pending.records, options);
		await this.settled(id);
		return this.backend.open(id, options);
	}

	async append(id: string, records: readonly RecordInput[], options: AppendOptions = {}): Promise<AppendResult> {
		assertSessionId(id);
		if (options.signal?.aborted) {
			throw this.errors.aborted(`waiting for the lease of session ${id}`, options.signal.reason);
		}
		if (this.deferred.has(id)) {
			const { prepareBatch } = await batch();
			if (this.deferred.has(id)) {
				const now = this.backend.now().toISOString();
				const held = this.deferred.hold(id, (metadata) => prepareBatch(metadata, records, now));
				if (held.firstReply) await this.writeOut(id);
				return { records: held.records, metadata: held.metadata };
			}
		}
		await this.settled(id);
		return this.backend.write(id, options, (writer) => writer.append(records));
	}

	read(id: string, options: ReadOptions = {}): AsyncIterable<StoredRecord> {
		assertSessionId(id);
		// Not through readFrom: a wrapper that replaces readFrom (to count, say) sees only its own calls.
		return this.records(id, 1, options);
	}

	readFrom(id: string, fromSeq: number, options: ReadOptions = {}): AsyncIterable<StoredRecord> {
		assertSessionId(id);
		if (!Number.isInteger(fromSeq)) throw this.errors.invalidArgument(`readFrom needs a whole seq, got ${fromSeq}`);
		return this.records(id, fromSeq, options);
	}

	/** The records with seq >= fromSeq of a session held in memory or stored. */
	private records(id: string, fromSeq: number, options: ReadOptions): AsyncIterable<StoredRecord> {
		const pending = this.deferred.get(id);
		if (pending) return iterate(pending.records.filter((record) => record.seq >= fromSeq));
		const shell = this;
		return (async function* () {
			await shell.settled(id);
			yield* shell.backend.read(id, fromSeq, options);
		})();
	}

	async tail(id: string, n: number, options: ReadOptions = {}): Promise<StoredRecord[]> {
		assertSessionId(id);
		if (!Number.isInteger(n) || n < 0) {
			throw this.errors.invalidArgument(`tail needs a whole number of records >= 0, got ${n}`);
		}
		const pending = this.deferred.get(id);
		if (pending) return n === 0 ? [] : pending.records.slice(-n);
		await this.settled(id);
		return this.backend.tail(id, n, options);
	}

	async list(options: ListOptions = {}): Promise<ListPage> {
		checkListOptions(options);
		return this.backend.list(options);
	}

	async listAsJson(options: ListOptions = {}): Promise<ListJsonPage> {
		checkListOptions(options);
		if (this.backend.listAsJson) return this.backend.listAsJson(options);
		const page = await this.backend.list(options);
		return { ...page, sessions: page.sessions.map((session) => utf8.encode(JSON.stringify(session))) };
	}

	async summarize(): Promise<SessionStats> {
		if (this.backend.summarize) return this.backend.summarize();
		const sessions: SessionMetadata[] = [];
		let cursor: string | undefined;
		do {
			const page = await this.backend.list({ archived: true, ...(cursor ? { cursor } : {}) });
			sessions.push(...page.sessions);
			cursor = page.nextCursor;
		} while (cursor !== undefined);
		return summarizeSessions(sessions);
	}

	async metadata(id: string): Promise<SessionMetadata> {
		assertSessionId(id);
		const pending = this.deferred.get(id);
		if (pending) return pending.metadata;
		await this.settled(id);
		return this.backend.metadata(id);
	}

	async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
		checkSearchArgs(query, options);
		return this.backend.search(query, options);
	}

	async lease(id: string, options: LeaseWait = {}): Promise<SessionLease> {
		await this.stored(id);
		const lease = await this.backend.lease(id, options);
		// The backend's own lease object (callers may use more of it than the contract), told to
		// leave the held set when released.
		const release = lease.release;
		const tracked = { release: () => release.call(lease) };
		this.held.add(tracked);
		lease.release = () => {
			this.held.delete(tracked);
			return release.call(lease);
		};
		return lease;
	}

	async fork(id: string, options: ForkOptions = {}): Promise<SessionMetadata> {
		await this.stored(id);
		if (options.name !== undefined) checkName(options.name);
		return this.backend.fork(id, options);
	}

	async branch(id: string, atSeq: number): Promise<SessionMetadata> {
		return (await this.write(id, (writer) => moveLeaf(writer, id, atSeq, this.errors))).metadata;
	}

	async rename(id: string, name: string): Promise<SessionMetadata> {
		checkName(name);
		return (await this.write(id, (writer) => writer.append([{ recordType: "session_info", name }]))).metadata;
	}

	async label(id: string, targetSeq: number, label: string): Promise<SessionMetadata> {
		checkLabel(label);
		return (await this.write(id, (writer) => labelRecord(writer, id, targetSeq, label, this.errors))).metadata;
	}

	archive(id: string): Promise<SessionMetadata> {
		return this.appendUnless(id, (metadata) => metadata.archivedAt !== undefined, {
			recordType: "archive_change",
			archived: true,
		});
	}

	unarchive(id: string): Promise<SessionMetadata> {
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
		assertSessionId(id);
		return this.backend.adopt(id, facts);
	}

	/** SessionImportTarget: records exactly as given, under the lease; their seqs continue the log. */
	async appendExact(id: string, records: readonly StoredRecord[], options: { gaps?: readonly SeqGap[] } = {}) {
		await this.write(id, (writer) => writer.appendExact(records, options.gaps));
	}

	async delete(id: string): Promise<void> {
		assertSessionId(id);
		if (this.deferred.delete(id)) return;
		await this.settled(id);
		await this.backend.delete(id);
	}

	async findByIdentity(identityKey: string): Promise<SessionMetadata | undefined> {
		checkIdentityKey(identityKey);
		return (await this.list({ identityKey, limit: 1 })).sessions[0];
	}

	async verify(id?: string): Promise<VerifyReport[]> {
		if (id !== undefined) return [await this.verifyOne(id)];
		const reports: VerifyReport[] = [];
		for (const sessionId of await this.backend.checkedIds()) reports.push((await this.backend.check(sessionId)).report);
		return reports;
	}

	/**
	 * Under the lease (a writer cuts a torn tail off first): acknowledges each damaged line in the
	 * middle of the log with a damage_ack record, and rebuilds the cached metadata from the log. The
	 * log is only appended to. Verify passes afterwards unless something else is wrong.
	 */
	async repair(id: string): Promise<VerifyReport> {
		return this.write(id, repairLog);
	}

	describe(): string {
		return this.backend.describe();
	}

	close(): Promise<void> {
		this.closing ??= (async () => {
			const held = [...this.held];
			this.held.clear();
			await Promise.allSettled(held.map((entry) => entry.release()));
			await this.backend.close?.();
		})();
		return this.closing;
	}

	[Symbol.asyncDispose](): Promise<void> {
		return this.close();
	}

	private async verifyOne(id: string): Promise<VerifyReport> {
		assertSessionId(id);
		const pending = this.deferred.get(id);
		if (pending) return { sessionId: id, ok: true, problems: [], records: pending.records.length, bytes: 0 };
		await this.settled(id);
		return (await this.backend.check(id)).report;
	}

	/** Appends `record` under the lease unless `already` says the log says so already. */
	private appendUnless(id: string, already: (metadata: SessionMetadata) => boolean, record: RecordInput) {
		return this.write(id, (writer) => appendUnless(writer, already, record));
	}

	/** `work` under the lease of a stored session (a deferred one is written out first), with the default wait. */
	private async write<T>(id: string, work: (writer: BackendWriter) => Promise<T>): Promise<T> {
		await this.stored(id);
		return this.backend.write(id, {}, work);
	}

	/** `running` (a watch, a relay), closed by the store's close unless it was closed before. */
	private holdUntilClosed<T extends { close(): Promise<void> }>(running: T): T {
		const close = running.close.bind(running);
		const entry = { release: close };
		this.held.add(entry);
		running.close = () => {
			this.held.delete(entry);
			return close();
		};
		return running;
	}

	/** The session stored: a deferred one written out (all at once), one being written out waited for. */
	private async stored(id: string): Promise<void> {
		assertSessionId(id);
		await this.settled(id);
		if (this.deferred.has(id)) await this.writeOut(id);
	}

	/** Waits while the deferred session `id` is being written out (then it is stored, or deferred again). */
	private async settled(id: string): Promise<void> {
		for (let pending = this.writingOut.get(id); pending; pending = this.writingOut.get(id)) {
			await pending.catch(() => undefined);
		}
	}

	/** Writes a deferred session out as it stands; it is then an ordinary session (or, if that fails, deferred still). */
	private writeOut(id: string): Promise<void> {
		const held = this.deferred.take(id);
		if (!held) return this.settled(id);
		const done = this.backend
			.materialize(held)
			.catch((error: unknown) => {
				this.deferred.restore(held);
				throw error;
			})
			.finally(() => this.writingOut.delete(id));
		this.writingOut.set(id, done);
		return done;
	}
}
