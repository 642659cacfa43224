import { closeSync, ftruncateSync, readSync } from "node:fs";
import {
	AgentSessionError,
	type AppendResult,
	InvalidRecordError,
	prepareBatch,
	type RecordInput,
	recordLine,
	type SeqGap,
	type SessionMetadata,
	type SessionRecord,
	type StoredRecord,
} from "@agent/session-format";
import {
	applyRecord,
	type BackendWriter,
	checkCompactions,
	checkExactSeqs,
	cloneMetadata,
	type LogCheck,
} from "@agent/session-format/store-kit";
import { readLinesBackward } from "./backward-reader.js";
import { errnoCode, leaseLost, notFound, PREFIX, storageFailure } from "./errors.js";
import type { HeldLock } from "./file-lock.js";
import { loadLogState } from "./log-state.js";
import { removeDeadWritersTemps, writeMetadataFile, writeMetadataFileInBackground } from "./metadata-file.js";
import type { ResolvedOptions } from "./options.js";
import { walkPathBackward } from "./path-walk.js";
import type { SessionPaths } from "./paths.js";
import { classifyLine, classifyLineLoading } from "./record-reader.js";
import { APPEND_FLAGS, assertRealDirectory, openOwnFile } from "./safe-files.js";
import { verifySession } from "./verify.js";
import { appendAll, copyRange, datasync } from "./write-bytes.js";

const NEWLINE = Buffer.from("\n");

/**
 * Refuses a batch holding a line longer than readers decode (maxLineBytes): it could be written
 * but never read back. Nothing of the batch is written.
 */
function checkLineLengths(lines: readonly string[], maxLineBytes: number): void {
	for (let index = 0; index < lines.length; index++) {
		const line = lines[index] as string;
		// A UTF-16 code unit is at most 3 bytes of UTF-8: most lines need no exact count.
		if (line.length * 3 <= maxLineBytes) continue;
		const bytes = Buffer.byteLength(line) - 1;
		if (bytes <= maxLineBytes) continue;
		throw new InvalidRecordError(
			`${PREFIX} record ${index + 1} of the batch is ${bytes} bytes as a line, more than the ${maxLineBytes} this store reads back (maxLineBytes); keep large payloads (files, images) outside the log and refer to them`,
			{ path: "", index },
		);
	}
}
const PROBE = Buffer.alloc(1);

/**
 * Everything that writes one session's log, used only while its lease is held. It knows the
 * log's length and last seq from a fresh look taken under the lease, and checks the file's size
 * again before every append, so seqs never come from a stale cache.
 */
export class SessionWriter implements BackendWriter {
	private metadata: SessionMetadata;
	private logBytes: number;
	private dirty: boolean;
	private flushing: Promise<void> | undefined;

	private constructor(
		private readonly fd: number,
		private readonly paths: SessionPaths,
		private readonly lock: HeldLock,
		private readonly options: ResolvedOptions,
		state: { metadata: SessionMetadata; logBytes: number; dirty: boolean },
	) {
		this.metadata = state.metadata;
		this.logBytes = state.logBytes;
		this.dirty = state.dirty;
	}

	/** Opens the log for appending and brings its metadata up to date; cuts off a torn tail. */
	static async open(paths: SessionPaths, lock: HeldLock, options: ResolvedOptions): Promise<SessionWriter> {
		let fd: number;
		try {
			assertRealDirectory(paths.dir);
			fd = openOwnFile(paths.log, APPEND_FLAGS);
		} catch (error) {
			if (errnoCode(error) === "ENOENT") throw notFound(paths.id);
			if (error instanceof AgentSessionError) throw error;
			throw storageFailure(`could not open ${paths.log} for appending`, error);
		}
		try {
			const writer = new SessionWriter(fd, paths, lock, options, {
				metadata: undefined as never,
				logBytes: 0,
				dirty: false,
			});
			await writer.refresh();
			return writer;
		} catch (error) {
			closeSync(fd);
			throw error;
		}
	}

	get current(): SessionMetadata {
		return this.metadata;
	}

	/**
	 * A fresh look at the log, and the torn-tail rule (see README.md): when the log does not end
	 * with LF, a last line that is a whole record (its write landed but for the newline) gets its
	 * LF, since readers already return it; a torn line — a write that never finished, so was never
	 * acknowledged — is copied to torn-tails.bin and cut off. Either way the next record starts on
	 * a line of its own and is never glued to what was there.
	 */
	private async refresh(): Promise<void> {
		const state = await loadLogState(this.fd, this.paths, {
			checkLastSeq: true,
			chunkBytes: this.options.forwardChunkBytes,
			maxLineBytes: this.options.maxLineBytes,
		});
		let logBytes = state.completeBytes;
		try {
			if (state.unterminated) {
				appendAll(this.fd, NEWLINE, state.size, `the missing newline of session ${this.paths.id}`);
				logBytes = state.size + 1;
			} else if (state.completeBytes < state.size) {
				copyRange(this.fd, state.completeBytes, state.size, this.paths.tornTails);
				ftruncateSync(this.fd, state.completeBytes);
			}
			if (logBytes !== state.size && this.options.durability === "fsync") await datasync(this.fd);
		} catch (error) {
			throw storageFailure(
				`session ${this.paths.id} ends with an unfinished line that could not be repaired (${(error as Error).message}); the store's verify() reports what is damaged`,
				error,
			);
		}
		// A writer that died between its append and the rename of its metadata left a lagging cache, and maybe a temp file.
		if (state.refresh !== "fresh") removeDeadWritersTemps(this.paths.metadata);
		state.metadata.logBytes = logBytes;
		this.metadata = state.metadata;
		this.logBytes = logBytes;
		this.dirty = this.dirty || state.refresh !== "fresh" || logBytes !== state.size;
	}

	/** Validates the whole batch, assigns seqs, writes it in one write, and only then updates metadata. */
	async append(inputs: readonly RecordInput[]): Promise<AppendResult> {
		if (this.lock.isCompromised() || (this.lock.refreshOverdue() && !(await this.lock.confirm()))) {
			throw leaseLost(this.paths.id);
		}
		if (this.grewBehindOurBack()) await this.refresh();
		const records = prepareBatch(this.metadata, inputs, this.options.now().toISOString());
		if (records.length === 0) return { records, metadata: cloneMetadata(this.metadata) };
		await checkCompactions(records, async (walk) => {
			const walked = await walkPathBackward(
				this.fd,
				{
					...walk,
					end: this.logBytes,
					where: `${PREFIX} session ${this.paths.id} (${this.paths.log})`,
					chunkBytes: this.options.backwardChunkBytes,
					maxLineBytes: this.options.maxLineBytes,
				},
				(record) => record,
			);
			return walked.items;
		});
		return this.writeRecords(records);
	}

	/**
	 * Appends records exactly as given (a copy from another store): their seqs must continue the
	 * log, but for `gaps` (acknowledged in the source); they were validated where they come from.
	 */
	async appendExact(records: readonly StoredRecord[], gaps?: readonly SeqGap[]): Promise<AppendResult> {
		if (this.lock.isCompromised() || (this.lock.refreshOverdue() && !(await this.lock.confirm()))) {
			throw leaseLost(this.paths.id);
		}
		if (this.grewBehindOurBack()) await this.refresh();
		checkExactSeqs(this.paths.id, this.metadata.lastSeq, records, gaps);
		if (records.length === 0) return { records: [], metadata: cloneMetadata(this.metadata) };
		return this.writeRecords(records as SessionRecord[]);
	}

	/** Writes prepared records in one write (and fsync when asked), and only then updates metadata. */
	private async writeRecords(records: SessionRecord[]): Promise<AppendResult> {
		const lines = records.map(recordLine);
		checkLineLengths(lines, this.options.maxLineBytes);
		const text = lines.join("");
		const what = `${records.length} record${records.length === 1 ? "" : "s"} to session ${this.paths.id}`;
		const length = appendAll(this.fd, text, this.logBytes, what);
		if (this.options.durability === "fsync") {
			try {
				await datasync(this.fd);
			} catch (error) {
				try {
					ftruncateSync(this.fd, this.logBytes);
				} catch {
					// Left in place unacknowledged; the caller is told it failed.
				}
				throw storageFailure(`could not flush ${what} to disk; it is not acknowledged, retry it`, error);
			}
		}
		this.logBytes += length;
		for (const record of records) applyRecord(this.metadata, record);
		this.metadata.logBytes = this.logBytes;
		this.dirty = true;
		return { records, metadata: cloneMetadata(this.metadata) };
	}

	/**
	 * The fresh look before each write under a held lease: is there a byte past the end we know?
	 * (Only a writer ignoring the lease could have put it there.) A one-byte pread at our end of
	 * file answers it without the allocations of an fstat.
	 */
	private grewBehindOurBack(): boolean {
		return readSync(this.fd, PROBE, 0, 1, this.logBytes) !== 0;
	}

	/** The record with seq `seq`, read from the end of the log backwards; undefined when no readable line has it. */
	async findRecord(seq: number): Promise<StoredRecord | undefined> {
		for await (const batch of readLinesBackward(this.fd, {
			end: this.logBytes,
			chunkBytes: this.options.backwardChunkBytes,
			maxLineBytes: this.options.maxLineBytes,
		})) {
			for (const raw of batch) {
				const outcome = classifyLine(raw) ?? (await classifyLineLoading(raw));
				if (outcome.kind !== "record") continue;
				if (outcome.record.seq === seq) return outcome.record;
				if (outcome.record.seq < seq) return undefined;
			}
		}
		return undefined;
	}

	/** The log checked as it stands (repair, under the lease). */
	check(): Promise<LogCheck> {
		return verifySession(this.paths, this.options);
	}

	/** Replaces the metadata this writer keeps (repair's rebuild from the whole log); written on the next flush. */
	replaceMetadata(metadata: SessionMetadata): void {
		this.metadata = cloneMetadata(metadata);
		this.metadata.logBytes = this.logBytes;
		this.dirty = true;
	}

	get needsFlush(): boolean {
		return this.dirty;
	}

	/**
	 * Writes metadata.json if it lags. A failure here never fails an append that already reached
	 * the log: the cache stays stale, is detected by its logBytes, and is caught up by the next reader.
	 */
	flushQuietly(): boolean {
		if (!this.dirty) return true;
		try {
			this.writeMetadata(this.metadata);
			this.dirty = false;
			return true;
		} catch {
			return false;
		}
	}

	/**
	 * Starts writing metadata.json if it lags, renaming it into place on the thread pool (see
	 * writeMetadataFileInBackground), so appends go on meanwhile. One such flush at a time: while
	 * one runs, this does nothing (the cache lags a little longer; the next flush, or release,
	 * catches up). A failure leaves the cache stale, as flushQuietly does.
	 */
	flushInBackground(): void {
		if (!this.dirty || this.flushing) return;
		const flush = writeMetadataFileInBackground(this.paths, this.metadata, this.options.durability === "fsync");
		this.dirty = false;
		this.flushing = flush.then(
			() => {
				this.flushing = undefined;
			},
			() => {
				this.flushing = undefined;
				this.dirty = true;
			},
		);
	}

	/** Waits for a flush started by flushInBackground; a synchronous write must not be overtaken by it. */
	async settle(): Promise<void> {
		await this.flushing;
	}

	private writeMetadata(metadata: SessionMetadata): void {
		try {
			writeMetadataFile(this.paths, metadata, this.options.durability === "fsync");
		} catch (error) {
			throw storageFailure(`could not write ${this.paths.metadata} (${(error as Error).message})`, error);
		}
	}

	close(): void {
		try {
			closeSync(this.fd);
		} catch {
			// closed already
		}
	}
}
