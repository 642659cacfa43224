import {
	type ForkOptions,
	type LeaseHolder,
	type ListOptions,
	type ListPage,
	listingTime,
	newSessionId,
	type OpenedSession,
	type OpenOptions,
	parseRecordLine,
	prepareBatch,
	type ReadOptions,
	type RecordInput,
	type SearchHit,
	type SearchOptions,
	type SessionLease,
	type SessionMetadata,
	type SessionRecord,
	type StoredRecord,
	serializeRecord,
} from "@agent/session-format";
import {
	applyRecord,
	type BackendWriter,
	checkCompactions,
	checkExactSeqs,
	checkLog,
	cloneMetadata,
	contextOf,
	type DescendingWalkOptions,
	decodeListCursor,
	encodeListCursor,
	forkedRecord,
	forkMetadata,
	type HeldSession,
	type LeaseWait,
	type LogCheck,
	listSearchMatches,
	MetadataRebuild,
	type SessionBackend,
	sessionHeaderOf,
	storeErrors,
	textMatcher,
	walkPathDescending,
	withSessionHeader,
} from "@agent/session-format/store-kit";

/**
 * A third SessionBackend, in memory: written from the interface alone, to show that one is all a
 * store needs (the conformance suite and the differential test run on it: memory-backend.test.ts).
 * Records are kept as the lines a log would hold; the metadata is a cache that `dropCaches` empties.
 */
interface Kept {
	created: SessionMetadata;
	metadata: SessionMetadata | undefined;
	records: StoredRecord[];
	lines: string[];
}

const errors = storeErrors("@agent/store-conformance (memory)");
const utf8 = new TextEncoder();
const bytesOf = (lines: readonly string[]) => lines.reduce((sum, line) => sum + utf8.encode(line).length + 1, 0);

export class MemoryBackend implements SessionBackend {
	readonly name = "@agent/store-conformance (memory)";
	private readonly locks = new Map<string, { holder: LeaseHolder; released: Promise<void> }>();

	constructor(
		/** The sessions: share one map between two backends to drop one's caches (a new store over the same data). */
		readonly sessions = new Map<string, Kept>(),
		private readonly clock: () => Date = () => new Date(),
	) {}

	now(): Date {
		return this.clock();
	}

	describe(): string {
		return "memory";
	}

	/** Every cached metadata forgotten: the records are the whole truth. */
	dropCaches(): void {
		for (const kept of this.sessions.values()) kept.metadata = undefined;
	}

	async create(make: (id: string) => SessionMetadata): Promise<SessionMetadata> {
		const metadata = make(newSessionId());
		this.sessions.set(metadata.id, { created: cloneMetadata(metadata), metadata, records: [], lines: [] });
		return metadata;
	}

	async materialize(held: HeldSession): Promise<void> {
		const { created, metadata, records, lines } = held;
		this.sessions.set(metadata.id, { created, metadata, records: [...records], lines: [...lines] });
	}

	async open(id: string, options: OpenOptions): Promise<OpenedSession> {
		const kept = this.kept(id);
		const metadata = cloneMetadata(this.metadataOf(id, kept));
		const leafSeq = options.leafSeq;
		if (leafSeq !== undefined && (!Number.isInteger(leafSeq) || leafSeq < 0 || leafSeq > metadata.lastSeq)) {
			throw errors.invalidArgument(`cannot open session ${id} at seq ${leafSeq}: it holds seqs 1..${metadata.lastSeq}`);
		}
		const walked = await walk(kept.records, {
			leafSeq: leafSeq ?? Number.MAX_SAFE_INTEGER,
			stopAtCompaction: true,
			leafFallsBack: leafSeq === undefined,
		});
		if (leafSeq !== undefined && leafSeq > 0 && walked.start === undefined) {
			throw errors.invalidArgument(`cannot open session ${id} at seq ${leafSeq}: no readable record has that seq`);
		}
		const first = kept.records.find((record) => record.seq === 1);
		return { metadata, path: walked.items, context: contextOf(walked.items, first, metadata, options) };
	}

	async *read(id: string, fromSeq: number, _options: ReadOptions): AsyncIterable<StoredRecord> {
		for (const record of this.kept(id).records) if (record.seq >= fromSeq) yield record;
	}

	async tail(id: string, n: number): Promise<StoredRecord[]> {
		return n === 0 ? [] : this.kept(id).records.slice(-n);
	}

	async list(options: ListOptions): Promise<ListPage> {
		const archived = options.archived ?? false;
		const all = [...this.sessions.entries()]
			.map(([id, kept]) => cloneMetadata(this.metadataOf(id, kept)))
			.filter(
				(metadata) =>
					(archived === true || (archived === "only") === (metadata.archivedAt !== undefined)) &&
					(options.source === undefined || metadata.source === options.source) &&
					(options.identityKey === undefined || metadata.identityKey === options.identityKey) &&
					(options.cwd === undefined || metadata.cwd === options.cwd) &&
					(options.createdBy === undefined || metadata.createdBy === options.createdBy) &&
					(!options.search || listSearchMatches(options.search, metadata.id, metadata.name)),
			)
			.sort((a, b) => listingTime(b) - listingTime(a) || (a.id < b.id ? 1 : -1));
		const after = options.cursor === undefined ? undefined : decodeListCursor(options.cursor);
		const rest = after
			? all.filter((m) => listingTime(m) < after.t || (listingTime(m) === after.t && m.id < after.id))
			: all;
		if (options.limit === undefined || rest.length <= options.limit) return { sessions: rest };
		const sessions = rest.slice(0, options.limit);
		return { sessions, nextCursor: encodeListCursor(sessions[sessions.length - 1] as SessionMetadata) };
	}

	async metadata(id: string): Promise<SessionMetadata> {
		return cloneMetadata(this.metadataOf(id, this.kept(id)));
	}

	async search(query: string, options: SearchOptions): Promise<SearchHit[]> {
		const matcher = textMatcher(query);
		const limit = options.limit ?? 100;
		const listing: ListOptions = { archived: options.archived ?? false };
		if (options.cwd !== undefined) listing.cwd = options.cwd;
		if (options.createdBy !== undefined) listing.createdBy = options.createdBy;
		const hits: SearchHit[] = [];
		for (const session of (await this.list(listing)).sessions) {
			for (const record of this.kept(session.id).records) {
				if (hits.length >= limit) return hits;
				const hit = matcher.match(session.id, record, session.name);
				if (hit) hits.push(hit);
			}
		}
		return hits;
	}

	async lease(id: string, wait: LeaseWait): Promise<SessionLease> {
		this.kept(id);
		const release = await this.lock(id, wait);
		const holder = this.locks.get(id)?.holder as LeaseHolder;
		let queue: Promise<unknown> = Promise.resolve();
		let released = false;
		return {
			sessionId: id,
			holder,
			append: (records: readonly RecordInput[]) => {
				const next = queue.then(() => {
					if (released) throw errors.leaseReleased(id);
					return this.writer(id).append(records);
				});
				queue = next.catch(() => undefined);
				return next;
			},
			release: async () => {
				await queue;
				if (!released) release();
				released = true;
			},
		};
	}

	async write<T>(id: string, wait: LeaseWait, work: (writer: BackendWriter) => Promise<T>): Promise<T> {
		this.kept(id);
		const release = await this.lock(id, wait);
		// All or nothing: the records and metadata as they were, should `work` fail.
		const kept = this.kept(id);
		const before = { records: [...kept.records], lines: [...kept.lines], metadata: kept.metadata };
		try {
			return await work(this.writer(id));
		} catch (error) {
			Object.assign(kept, before);
			throw error;
		} finally {
			release();
		}
	}

	async fork(id: string, options: ForkOptions): Promise<SessionMetadata> {
		const kept = this.kept(id);
		const source = this.metadataOf(id, kept);
		const atSeq = options.atSeq ?? source.leafSeq ?? source.lastSeq;
		if (!Number.isInteger(atSeq) || atSeq < 0 || atSeq > source.lastSeq) {
			throw errors.invalidArgument(`cannot fork session ${id} at seq ${atSeq}: it holds seqs 1..${source.lastSeq}`);
		}
		const walked = await walk(kept.records, {
			leafSeq: atSeq,
			stopAtCompaction: false,
			leafFallsBack: options.atSeq === undefined,
		});
		if (options.atSeq !== undefined && atSeq > 0 && walked.start === undefined) {
			throw errors.invalidArgument(`cannot fork session ${id} at seq ${atSeq}: no readable record has that seq`);
		}
		const path = walked.items;
		const newSeq = new Map(path.map((record, index) => [record.seq, index + 1]));
		const keptSeqs = path.map((record) => record.seq);
		const labels = new Map<number, StoredRecord & { recordType: "label" }>();
		for (const record of [...kept.records].reverse()) {
			if (record.recordType === "label" && !labels.has(record.targetSeq)) labels.set(record.targetSeq, record);
		}
		const created = forkMetadata(source, options, path[path.length - 1]?.seq ?? 0, this.now());
		created.id = newSessionId();
		const header = sessionHeaderOf(created);
		const records: StoredRecord[] = path.map((record) => {
			const copy = forkedRecord(record, newSeq, keptSeqs);
			return copy.seq === 1 ? withSessionHeader(copy, header) : copy;
		});
		const labelled = [...labels.values()].filter((l) => newSeq.has(l.targetSeq) && (l.label ?? "").length > 0);
		for (const label of labelled.sort((a, b) => a.seq - b.seq)) {
			const { parentSeq: _dropped, ...rest } = label;
			records.push({ ...rest, seq: records.length + 1, targetSeq: newSeq.get(label.targetSeq) as number });
		}
		const metadata = cloneMetadata(created);
		for (const record of records) applyRecord(metadata, record);
		const lines = records.map(serializeRecord);
		metadata.logBytes = bytesOf(lines);
		this.sessions.set(created.id, { created, metadata, records, lines });
		return cloneMetadata(metadata);
	}

	async delete(id: string): Promise<void> {
		await this.write(id, {}, async () => {
			this.sessions.delete(id);
		});
	}

	async adopt(id: string, facts: SessionMetadata): Promise<number> {
		const kept = this.sessions.get(id);
		if (kept) return this.metadataOf(id, kept).lastSeq;
		const created = { ...cloneMetadata(facts), id, lastSeq: 0, logBytes: 0 };
		this.sessions.set(id, { created, metadata: cloneMetadata(created), records: [], lines: [] });
		return 0;
	}

	async check(id: string): Promise<LogCheck> {
		const kept = this.kept(id);
		let end = 0;
		const lines = kept.records.map((record, index) => {
			end += utf8.encode(kept.lines[index] as string).length + 1;
			const opaque = record.recordType === "opaque" ? { opaque: record.reason } : {};
			return { kind: "record" as const, record, line: record.seq, byteOffset: 0, end, ...opaque };
		});
		const cached = kept.metadata ? { state: "ok" as const, metadata: kept.metadata } : { state: "missing" as const };
		return checkLog(id, lines, { rebuildFrom: kept.created, cached });
	}

	async checkedIds(): Promise<string[]> {
		return [...this.sessions.keys()].sort();
	}

	private kept(id: string): Kept {
		const kept = this.sessions.get(id);
		if (!kept) throw errors.notFound(id);
		return kept;
	}

	/** The cached metadata, rebuilt from the records when it was dropped. */
	private metadataOf(id: string, kept: Kept): SessionMetadata {
		if (!kept.metadata) {
			const rebuild = new MetadataRebuild(id, kept.created);
			for (const record of kept.records) rebuild.apply(record);
			kept.metadata = rebuild.finish(bytesOf(kept.lines));
		}
		return kept.metadata;
	}

	/** The session's writer: seqs from its metadata now; only called under its lock. */
	private writer(id: string): BackendWriter {
		const kept = this.kept(id);
		const write = (given: StoredRecord[]) => {
			const lines = given.map(serializeRecord);
			// Kept as a log keeps them: what its lines read back as (an opaque record says why, in a reader's words).
			const records = lines.map((line) => (parseRecordLine(line) as { record: StoredRecord }).record);
			const metadata = cloneMetadata(this.metadataOf(id, kept));
			for (const record of records) applyRecord(metadata, record);
			metadata.logBytes += bytesOf(lines);
			kept.records.push(...records);
			kept.lines.push(...lines);
			kept.metadata = metadata;
			return { records: records as SessionRecord[], metadata: cloneMetadata(metadata) };
		};
		return {
			get current() {
				return kept.metadata as SessionMetadata;
			},
			append: async (inputs) => {
				const records = prepareBatch(this.metadataOf(id, kept), inputs, this.now().toISOString());
				if (records.length === 0) return { records, metadata: cloneMetadata(this.metadataOf(id, kept)) };
				await checkCompactions(records, async (options) => (await walk(kept.records, options)).items);
				return write(records);
			},
			appendExact: async (records, gaps) => {
				checkExactSeqs(id, this.metadataOf(id, kept).lastSeq, records, gaps);
				return write([...records]);
			},
			findRecord: async (seq) => kept.records.find((record) => record.seq === seq),
			check: () => this.check(id),
			replaceMetadata: (metadata) => {
				kept.metadata = cloneMetadata(metadata);
			},
		};
	}

	/** Takes the session's lock, waiting up to wait.waitMs (default 2 s) for its holder; its release. */
	private async lock(id: string, wait: LeaseWait): Promise<() => void> {
		const deadline = Date.now() + (wait.waitMs ?? 2_000);
		for (let held = this.locks.get(id); held; held = this.locks.get(id)) {
			const left = deadline - Date.now();
			if (left <= 0) throw errors.locked(id, held.holder, wait.waitMs ?? 2_000);
			let timer: NodeJS.Timeout | undefined;
			await Promise.race([held.released, new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
			clearTimeout(timer);
		}
		this.kept(id);
		let release = () => undefined as undefined;
		const released = new Promise<void>((resolve) => {
			release = () => {
				this.locks.delete(id);
				resolve();
			};
		});
		this.locks.set(id, { holder: { pid: process.pid, host: "memory", since: this.now().toISOString() }, released });
		return release;
	}
}

/** The path of a walk over the records, newest first (as every store walks its log). */
function walk(records: readonly StoredRecord[], options: DescendingWalkOptions) {
	const newestFirst = [...records].reverse();
	async function* batches() {
		yield newestFirst;
	}
	return walkPathDescending(batches(), (record) => record, options);
}
