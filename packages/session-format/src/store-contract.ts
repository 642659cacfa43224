/**
 * The storage contract: what every session store gives its users (the filesystem store in
 * @agent/session-fs is the embedded default; @agent/session-pg keeps sessions in PostgreSQL).
 * Types only. A store is written as a narrow SessionBackend (session-backend.ts: the writer and
 * lease, reading, tailing, listing, search, fork, delete, adopt, the turn journal) that
 * `createSessionStore` (@agent/session-format/store-kit) makes into this contract, doing the rest
 * once for every backend; one conformance suite (@agent/store-conformance) runs unchanged against
 * every backend.
 *
 * The log is the whole truth: every fact about a session (its creation facts, name, archive
 * state, active leaf, labels, uptime, fork origin) is a record of its log, so whatever a backend
 * keeps besides the records (metadata.json and cache/ on disk, derived columns in a database) is
 * a cache it can rebuild from them, and every method answers the same after it does.
 */
import type { ContentBlock } from "./content.js";
import type { EphemeralMessage, SessionContext } from "./context.js";
import type { LeaseHolder } from "./errors.js";
import type { SessionMetadata, SessionSource } from "./metadata.js";
import type { LineProblemCode } from "./parse-line.js";
import type { RecordInput, SessionRecord, StoredRecord } from "./records.js";
import type { SessionStats } from "./stats.js";
import type { SearchHit } from "./text-search.js";

/** Seqs from..to missing from a log (both included). */
export interface SeqGap {
	from: number;
	to: number;
}

export interface CreateSessionOptions {
	name?: string;
	/** "provider/model-id" */
	model?: string;
	source?: SessionSource;
	cronJobId?: string;
	systemPromptOverride?: string;
	/** An identity such as channel + user (fern) or agent + sender (rfc-0064). */
	identityKey?: string;
	/** The creation time to record (importers keep the source's); default now. */
	createdAt?: string;
	/** Where an imported session came from (format and the source's own id): keys idempotent imports. */
	importedFrom?: { format: string; sourceId: string };
	/** The working directory the session belongs to (a project); `list({ cwd })` finds it. */
	cwd?: string;
	/**
	 * The user that created the session (a server's authenticated user): a creation fact in its log,
	 * which `list({ createdBy })` and `search(q, { createdBy })` filter on. A fork keeps it.
	 */
	createdBy?: string;
	/** Active time the session starts with (an importer keeps its source's); default 0. */
	uptimeSeconds?: number;
	/**
	 * Deferred persistence (pi-style): nothing is written until the first assistant message is
	 * appended; records before it are held in memory by this store instance. Off by default.
	 */
	deferred?: boolean;
}

/** A line that could not be read, as reported to a reader's `onProblem`. */
export interface RecordProblem {
	/** 1-based line number in the log. */
	line: number;
	/** Byte offset of the start of the line. */
	byteOffset: number;
	code: LineProblemCode | "TORN_TAIL" | "OPAQUE_RECORD";
	reason: string;
}

export interface ReadOptions {
	/** Throw CorruptRecordError at the first bad line in the middle of the log instead of skipping it. */
	strict?: boolean;
	/** Called for every line skipped (or kept opaque), with its line number and byte offset. */
	onProblem?: (problem: RecordProblem) => void;
	signal?: AbortSignal;
}

export interface AppendOptions {
	/** How long to wait for another writer's lease, in ms (default 10 000; 0 fails at once). */
	waitMs?: number;
	signal?: AbortSignal;
}

export interface AppendResult {
	/** The records as written, with seq, schemaVersion, timestamp (and parentSeq) assigned. */
	records: SessionRecord[];
	metadata: SessionMetadata;
}

export interface OpenOptions {
	/** Build the context for this leaf instead of the session's active leaf. */
	leafSeq?: number;
	ephemeral?: readonly EphemeralMessage[];
	/** Default: the session's systemPromptOverride. */
	systemPrompt?: string;
	onProblem?: (problem: RecordProblem) => void;
}

/** A session resumed: its metadata, the live part of its path, and the context the LLM sees. */
export interface OpenedSession {
	metadata: SessionMetadata;
	/**
	 * The path to the leaf, from the latest compaction's firstKeptSeq (or from the root when there
	 * is no compaction) to the leaf: everything the context and the next compaction need.
	 */
	path: StoredRecord[];
	context: SessionContext;
}

export interface ListOptions {
	/** Default false: archived sessions are hidden. "only" lists just them; true lists both. */
	archived?: boolean | "only";
	source?: SessionSource;
	/** Case-insensitive text in the name (or id). */
	search?: string;
	identityKey?: string;
	/** Only sessions that record this working directory. */
	cwd?: string;
	/** Only sessions created by this user (CreateSessionOptions.createdBy). */
	createdBy?: string;
	limit?: number;
	/** The nextCursor of a previous page. */
	cursor?: string;
}

export interface SearchOptions {
	/** Default false: archived sessions are not searched. "only" searches just them; true both. */
	archived?: boolean | "only";
	/** Only sessions that record this working directory. */
	cwd?: string;
	/** Only sessions created by this user (CreateSessionOptions.createdBy). */
	createdBy?: string;
	/** At most this many hits (default 100). */
	limit?: number;
	signal?: AbortSignal;
}

export interface ListPage {
	/** Newest lastMessageAt first (S7.5). */
	sessions: SessionMetadata[];
	/** Present when more sessions match. */
	nextCursor?: string;
}

/**
 * A ListPage with each session's metadata as JSON: the UTF-8 bytes of what `JSON.stringify` makes
 * of it, ready to be written out (a CLI's stdout, an HTTP body) without becoming text again.
 */
export interface ListJsonPage {
	sessions: Uint8Array[];
	nextCursor?: string;
}

export interface ForkOptions {
	/** Fork the path up to this seq (default: the active leaf). */
	atSeq?: number;
	name?: string;
}

export type VerifyProblemKind =
	| "torn_tail"
	| "corrupt_line"
	| "opaque_record"
	| "unportable_text"
	| "seq_gap"
	| "seq_duplicate"
	| "dangling_parent"
	| "compaction_off_path"
	| "metadata_drift"
	| "metadata_missing"
	| "not_a_regular_file";

export interface VerifyProblem {
	kind: VerifyProblemKind;
	message: string;
	/**
	 * A damaged line (and the seq gap or dangling parents it causes) that `repair` acknowledged
	 * with a damage_ack record: reported, but no longer a failure.
	 */
	acknowledged?: boolean;
	line?: number;
	byteOffset?: number;
	seq?: number;
}

export interface VerifyReport {
	sessionId: string;
	ok: boolean;
	problems: VerifyProblem[];
	records: number;
	bytes: number;
	/** True when repair rebuilt the metadata (the log is only ever appended to). */
	repaired?: boolean;
	/** Damaged lines repair acknowledged now (one damage_ack record each). */
	acknowledged?: number;
}

/**
 * A turn a runtime accepted (HTTP 202) and has not recorded yet, as the turn journal keeps it
 * (`noteAcceptedTurn`): enough to record it as interrupted with its user message if the process
 * that accepted it dies before it does.
 */
export interface AcceptedTurn {
	turnId: string;
	/** ISO time it was accepted. */
	acceptedAt: string;
	/** The user message it was sent with. */
	content: ContentBlock[];
}

/** An accepted turn as the journal lists it: `lost` when the process (or instance) that accepted it is gone. */
export interface JournaledTurn extends AcceptedTurn {
	lost: boolean;
}

/** A held single-writer lease: appends through it skip re-acquiring. Release it when done. */
export interface SessionLease {
	readonly sessionId: string;
	readonly holder: LeaseHolder;
	append(records: readonly RecordInput[]): Promise<AppendResult>;
	release(): Promise<void>;
}

export interface SessionStore {
	/** Creates a session; ids are generated here, never taken from callers (S7.1). */
	create(options?: CreateSessionOptions): Promise<SessionMetadata>;
	/** Resumes a session: metadata, the live path and the context, reading only what the context needs. */
	open(id: string, options?: OpenOptions): Promise<OpenedSession>;
	/** Appends records in one batch under the lease; all or nothing is validated before any write. */
	append(id: string, records: readonly RecordInput[], options?: AppendOptions): Promise<AppendResult>;
	/** Streams every record in log order. */
	read(id: string, options?: ReadOptions): AsyncIterable<StoredRecord>;
	/** Streams the records with seq >= fromSeq in log order. */
	readFrom(id: string, fromSeq: number, options?: ReadOptions): AsyncIterable<StoredRecord>;
	/** The last n records in log order, read from the end. */
	tail(id: string, n: number, options?: ReadOptions): Promise<StoredRecord[]>;
	list(options?: ListOptions): Promise<ListPage>;
	/**
	 * Optional: the page `list` gives, each session as UTF-8 JSON, for callers that only pass it on
	 * (`list --json`, an HTTP listing). A store that keeps that JSON answers without parsing and
	 * printing every session again; JSON.parse of each decoded text equals the session `list` gives.
	 */
	listAsJson?(options?: ListOptions): Promise<ListJsonPage>;
	/**
	 * Optional: summarizeSessions over every session (archived ones included) in `list` order, as
	 * `stats` of a whole store shows it. A store that keeps the sum answers without reading every
	 * session's metadata.
	 */
	summarize?(): Promise<SessionStats>;
	metadata(id: string): Promise<SessionMetadata>;
	/**
	 * Full-text search of message text (`textMatcher` in text-search.ts decides what matches and
	 * words the snippet): hits in sessions of newest activity first, by seq within a session, one
	 * per record, at most `limit`.
	 */
	search(query: string, options?: SearchOptions): Promise<SearchHit[]>;
	/** Takes the cross-process single-writer lease (waiting up to waitMs). */
	lease(id: string, options?: { waitMs?: number; signal?: AbortSignal }): Promise<SessionLease>;
	/** A new session holding the path up to atSeq, compaction references remapped. */
	fork(id: string, options?: ForkOptions): Promise<SessionMetadata>;
	/** Moves the active leaf to atSeq (a leaf_change record): the next append continues from there. */
	branch(id: string, atSeq: number): Promise<SessionMetadata>;
	/** Names the session: a session_info record plus metadata. */
	rename(id: string, name: string): Promise<SessionMetadata>;
	/** Labels a record (an empty label clears it). */
	label(id: string, targetSeq: number, label: string): Promise<SessionMetadata>;
	/** Hides the session from the default listing (an archive_change record). */
	archive(id: string): Promise<SessionMetadata>;
	unarchive(id: string): Promise<SessionMetadata>;
	delete(id: string): Promise<void>;
	/** The latest session (newest activity, not archived) for an identity key. */
	findByIdentity(identityKey: string): Promise<SessionMetadata | undefined>;
	/** Adds active time (rfc-0064 uptime): an uptime record. */
	addUptime(id: string, seconds: number): Promise<SessionMetadata>;
	/**
	 * Optional, the turn journal: notes an accepted turn durably before the runtime acknowledges it,
	 * with this process (or instance) as its owner. The runtime forgets it once its turn record is
	 * in the log; one whose owner died is recorded as interrupted when the session is next leased.
	 */
	noteAcceptedTurn?(sessionId: string, turn: AcceptedTurn): Promise<void>;
	/** Optional, the turn journal: the session's accepted turns not forgotten yet, oldest first. */
	acceptedTurns?(sessionId: string): Promise<JournaledTurn[]>;
	/** Optional, the turn journal: forgets an accepted turn (nothing when it is not noted). */
	forgetAcceptedTurn?(sessionId: string, turnId: string): Promise<void>;
	/** Checks one session or all; reports every problem with its line and byte offset. */
	verify(id?: string): Promise<VerifyReport[]>;
	/**
	 * Rebuilds every cache of the session from the log, and acknowledges each damaged line in the
	 * middle of the log with a damage_ack record (the log is only appended to, never rewritten), so
	 * that verify passes again while still reporting them.
	 */
	repair(id: string): Promise<VerifyReport>;
	/**
	 * Optional: reports changes to the store's sessions, whoever made them (this process, another
	 * process, another machine), soon after they were written: a session created, grown or
	 * otherwise changed (with its metadata then), or deleted. Reports may be coalesced (one for
	 * several appends) and may repeat what a caller knew already (compare `lastSeq`). Resolves once
	 * watching; a server uses it to show writes it did not make itself.
	 */
	watch?(onChange: (change: StoreChange) => void): Promise<StoreWatcher>;
	/**
	 * Optional, for several instances over one store: claims one tick of a scheduled job for
	 * `instance`: true for exactly one of the instances that ask about the same job and tick, so
	 * each job runs once per tick however many instances schedule it. Absent on a store only one
	 * process serves (the file store): every tick is its own.
	 */
	claimJobTick?(jobId: string, tick: Date, instance: string): Promise<boolean>;
	/**
	 * Optional, beside claimJobTick: forgets the claims of ticks before `before` (a claim matters
	 * only while the instances' timers for its tick fire); returns how many went.
	 */
	pruneJobTicks?(before: Date): Promise<number>;
	/**
	 * Optional, for several instances over one store: shares events between the instances (every
	 * event of this one is sent to the others, theirs emitted here), so a client of any instance
	 * sees every turn. Absent where one process serves the store.
	 */
	relayEvents?<E>(events: RelayedEvents<E>): Promise<EventRelay>;
	/** Optional: where the sessions live, for a start-up line (a directory; a database URL without its password). */
	describe?(): string;
	/**
	 * Lets go of everything the store holds — leases it gave out and their locks, watches, timers,
	 * connections — so a process that used it exits by itself. Using the store afterwards is an
	 * error (the file store may still answer). Resolves once all of it is let go; closing twice is
	 * closing once.
	 */
	close(): Promise<void>;
	/** `close()`, for `await using store = ...`. */
	[Symbol.asyncDispose](): Promise<void>;
}

/** What a store's relayEvents shares between instances: this instance's events, and where the others' go. */
export interface RelayedEvents<E> {
	/** Called for every event of this instance (to be sent to the others); returns how to stop. */
	subscribe(listener: (event: E) => void): () => void;
	/** Hands an event from another instance to this one's listeners (WebSocket clients). */
	emit(event: E): void;
	/**
	 * Optional: one event that says what `earlier` and then `later` say (e.g. two streamed pieces of
	 * one reply), or undefined when they cannot be one. Events waiting to be sent together are merged.
	 */
	merge?(earlier: E, later: E): E | undefined;
}

/** A running relay (SessionStore.relayEvents). */
export interface EventRelay {
	/** This instance's id in the relay (what it claims job ticks as). */
	readonly instance: string;
	close(): Promise<void>;
}

/** A change to a session, as a store's `watch` reports it. */
export type StoreChange =
	| {
			type: "changed";
			sessionId: string;
			metadata: SessionMetadata;
			/** True when the session is new to the watch (false or absent: it may be). */
			created?: boolean;
	  }
	| { type: "deleted"; sessionId: string };

/** A running watch of a store (SessionStore.watch). */
export interface StoreWatcher {
	/** Stops watching; no change is reported after it resolved. */
	close(): Promise<void>;
}

/**
 * Optional, for moving sessions between stores exactly (`agent-sessions migrate`): a store that
 * can take a session under its existing id and its records as they are. Both built-in stores
 * implement it; `isImportTarget` tells.
 */
export interface SessionImportTarget {
	/**
	 * Makes session `id` exist with `facts` as its creation facts (what a session with no record
	 * yet has), unless it exists already; returns its last seq (0 when new), so a copy resumes.
	 */
	adoptSession(id: string, facts: SessionMetadata): Promise<number>;
	/**
	 * Appends records exactly as given, under the lease: their seqs must continue the log's last
	 * seq, one by one, but for the seqs of `options.gaps` (a source log's gaps that its repair
	 * acknowledged: the damaged line holding them stays behind). A store that cannot hold some text
	 * of a record as it is (PostgreSQL: a lone surrogate, U+0000 in a name; see portableRecord)
	 * stores U+FFFD in its place.
	 */
	appendExact(id: string, records: readonly StoredRecord[], options?: { gaps?: readonly SeqGap[] }): Promise<void>;
}

export function isImportTarget(store: SessionStore): store is SessionStore & SessionImportTarget {
	const candidate = store as Partial<SessionImportTarget>;
	return typeof candidate.adoptSession === "function" && typeof candidate.appendExact === "function";
}
