import type { HeldSession } from "./deferred-sessions.js";
import type { LogCheck } from "./log-check.js";
import type { SessionMetadata } from "./metadata.js";
import type { RecordInput, StoredRecord } from "./records.js";
import type { SessionStats } from "./stats.js";
import type {
	AcceptedTurn,
	AppendResult,
	EventRelay,
	ForkOptions,
	JournaledTurn,
	ListJsonPage,
	ListOptions,
	ListPage,
	OpenedSession,
	OpenOptions,
	ReadOptions,
	RelayedEvents,
	SearchOptions,
	SeqGap,
	SessionLease,
	StoreChange,
	StoreWatcher,
} from "./store-contract.js";
import type { SearchHit } from "./text-search.js";

/** How long to wait for another writer's lease, and a signal to stop waiting. */
export interface LeaseWait {
	waitMs?: number;
	signal?: AbortSignal;
}

/**
 * What a backend can do with one session while it holds the session's single-writer lease (see
 * SessionBackend.write). `current` is true of the log as it is under the lease: seqs are
 * assigned from it, never from a cache read before.
 */
export interface BackendWriter {
	readonly current: SessionMetadata;
	/** Validates the whole batch (prepareBatch, checkCompactions), assigns seqs, writes it: all or nothing. */
	append(records: readonly RecordInput[]): Promise<AppendResult>;
	/** Writes records exactly as given (a copy from another store): their seqs continue the log but for `gaps` (checkExactSeqs). */
	appendExact(records: readonly StoredRecord[], gaps?: readonly SeqGap[]): Promise<unknown>;
	/** The readable record with this seq; undefined when there is none. */
	findRecord(seq: number): Promise<StoredRecord | undefined>;
	/** The log checked as it stands, under the lease (repair checks, acknowledges, checks again). */
	check(): Promise<LogCheck>;
	/** Replaces the cached metadata with `metadata`, rebuilt from the log (repair). */
	replaceMetadata(metadata: SessionMetadata): void | Promise<void>;
}

/** A backend's turn journal (see SessionStore.noteAcceptedTurn); arguments arrive checked. */
export interface BackendJournal {
	note(sessionId: string, turn: AcceptedTurn): Promise<void>;
	list(sessionId: string): Promise<JournaledTurn[]>;
	forget(sessionId: string, turnId: string): Promise<void>;
}

/**
 * A session store backend: the few things that depend on where the bytes live. `createSessionStore`
 * (store-shell.ts) makes a whole SessionStore of one, doing once, for every backend, what does
 * not: argument checks, deferred sessions, branch, label, rename, archive, uptime, look-up by
 * identity, appendUnless, the repair that acknowledges damage, verify's log checker (checkLog,
 * which `check` feeds), leases and watches let go on close, and the error words (storeErrors).
 *
 * Every session id a backend is given is a valid one (assertSessionId ran), and the session is
 * not a deferred one still held in memory (the shell has written it out first, through
 * `materialize`, where that matters). A backend throws AgentSessionErrors with the codes of the
 * contract (SESSION_NOT_FOUND for a session it does not hold, SESSION_LOCKED, STORAGE_FAILURE...).
 * A new backend is done when @agent/store-conformance (and its differential test beside the file
 * store) pass on it unchanged.
 *
 * Optional members are accelerators and capabilities: the shell falls back to the general path
 * where an accelerator is missing (`listAsJson`, `summarize`), and offers a capability only when
 * the backend has it (`watch`, the turn journal, `claimJobTick`, `relayEvents`).
 */
export interface SessionBackend {
	/** The package errors are worded for, e.g. "@agent/session-fs" (see storeErrors). */
	readonly name: string;
	/** The clock creations and appends are stamped with. */
	now(): Date;
	/** Stores a new session with no record under an id of the backend's choosing; `make` gives its metadata. */
	create(make: (id: string) => SessionMetadata): Promise<SessionMetadata>;
	/** Stores a deferred session whole (its creation facts, records as lines, metadata): all or nothing. */
	materialize(held: HeldSession): Promise<void>;
	/** The contract's `open` (see resume in docs/session-format.md: read only what the context needs). */
	open(id: string, options: OpenOptions): Promise<OpenedSession>;
	/** The records with seq >= fromSeq in log order (1: all); a missing session fails when iterated. */
	read(id: string, fromSeq: number, options: ReadOptions): AsyncIterable<StoredRecord>;
	/** The last n records (n >= 0, whole) in log order, read from the end. */
	tail(id: string, n: number, options: ReadOptions): Promise<StoredRecord[]>;
	/** A page of the listing; `options` checked (checkListOptions). */
	list(options: ListOptions): Promise<ListPage>;
	/** Optional accelerator: the page as JSON bytes without printing every session again. */
	listAsJson?(options: ListOptions): Promise<ListJsonPage>;
	/** Optional accelerator: summarizeSessions over every session, archived ones included. */
	summarize?(): Promise<SessionStats>;
	metadata(id: string): Promise<SessionMetadata>;
	/** Full-text search; arguments checked (checkSearchArgs). */
	search(query: string, options: SearchOptions): Promise<SearchHit[]>;
	/** Takes the cross-process lease for a caller to hold (waiting as `wait` says). */
	lease(id: string, wait: LeaseWait): Promise<SessionLease>;
	/** Runs `work` under the session's lease, taken for it alone and let go after. */
	write<T>(id: string, wait: LeaseWait, work: (writer: BackendWriter) => Promise<T>): Promise<T>;
	/** A new session holding the path to options.atSeq (see fork-plan.ts); a name in options is checked. */
	fork(id: string, options: ForkOptions): Promise<SessionMetadata>;
	/** Deletes the session under its lease, whole: readers see all of it or nothing. */
	delete(id: string): Promise<void>;
	/** SessionImportTarget.adoptSession: session `id` with these creation facts unless it exists; its last seq. */
	adopt(id: string, facts: SessionMetadata): Promise<number>;
	/** Reads the session's log and cached metadata through checkLog (verify). */
	check(id: string): Promise<LogCheck>;
	/** Every session `verify()` checks, in id order (a backend may list what is damaged beyond listing). */
	checkedIds(): Promise<string[]>;
	/** Optional: the turn journal. */
	readonly journal?: BackendJournal;
	/** Optional capability: SessionStore.watch. */
	watch?(onChange: (change: StoreChange) => void): Promise<StoreWatcher>;
	/** Optional capability: SessionStore.claimJobTick. */
	claimJobTick?(jobId: string, tick: Date, instance: string): Promise<boolean>;
	/** Optional capability: SessionStore.pruneJobTicks. */
	pruneJobTicks?(before: Date): Promise<number>;
	/** Optional capability: SessionStore.relayEvents. */
	relayEvents?<E>(events: RelayedEvents<E>): Promise<EventRelay>;
	/** Where the sessions live, for a start-up line (no password). */
	describe(): string;
	/** Lets go of what the backend holds (connections, timers) after the shell let go of leases and watches. */
	close?(): Promise<void>;
}
