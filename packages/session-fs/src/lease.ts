import { hostname } from "node:os";
import type { AppendResult, LeaseHolder, RecordInput, SessionLease } from "@agent/session-format/reading";
import { aborted, leaseReleased, locked } from "./errors.js";
import { acquireFileLock, type HeldLock } from "./file-lock.js";
import { markMetadataChanged } from "./metadata-changes.js";
import { acquireMutex, MutexTimeoutError } from "./mutex.js";
import type { ResolvedOptions } from "./options.js";
import type { SessionPaths } from "./paths.js";
import { SessionWriter } from "./writer.js";

/**
 * A held single-writer lease: the in-process mutex, the cross-process lock, and an open writer.
 * Work through it runs one call at a time, in order. metadata.json is rewritten at most every
 * metadataFlushMs while it is held (the log on every append) and always on release.
 */
export class FileSessionLease implements SessionLease {
	private chain: Promise<unknown> = Promise.resolve();
	private released = false;
	private lastFlush = Date.now();
	private flushTimer: NodeJS.Timeout | undefined;

	constructor(
		readonly sessionId: string,
		private readonly lock: HeldLock,
		private readonly writer: SessionWriter,
		private readonly releaseMutex: () => void,
		private readonly flushMs: number,
	) {}

	get holder(): LeaseHolder {
		return this.lock.holder;
	}

	append(records: readonly RecordInput[]): Promise<AppendResult> {
		return this.run(async (writer) => {
			const result = await writer.append(records);
			this.afterAppend();
			return result;
		});
	}

	/** Runs `work` with the writer, after every earlier call through this lease. */
	run<T>(work: (writer: SessionWriter) => Promise<T>): Promise<T> {
		const next = this.chain.then(() => {
			if (this.released) {
				throw leaseReleased(this.sessionId);
			}
			return work(this.writer);
		});
		this.chain = next.catch(() => undefined);
		return next;
	}

	release(): Promise<void> {
		const done = this.chain.then(async () => {
			if (this.released) return;
			this.released = true;
			clearTimeout(this.flushTimer);
			try {
				// The last metadata.json write renames on the thread pool too: a rename over a file can
				// wait on the disk for milliseconds, and other sessions' turns go on meanwhile.
				await this.writer.settle();
				this.writer.flushInBackground();
				await this.writer.settle();
			} finally {
				this.writer.close();
				this.lock.release();
				this.releaseMutex();
			}
		});
		this.chain = done.catch(() => undefined);
		return done;
	}

	private afterAppend(): void {
		if (!this.writer.needsFlush) return;
		if (this.flushMs <= 0 || Date.now() - this.lastFlush >= this.flushMs) {
			this.flushNow();
			return;
		}
		if (this.flushTimer) return;
		this.flushTimer = setTimeout(() => {
			this.flushTimer = undefined;
			this.run(async () => this.flushNow()).catch(() => undefined);
		}, this.flushMs);
		this.flushTimer.unref();
	}

	/** With coalesced flushes (flushMs > 0) the rename runs on the thread pool while appends go on; release waits for it. */
	private flushNow(): void {
		if (this.flushMs > 0) this.writer.flushInBackground();
		else this.writer.flushQuietly();
		this.lastFlush = Date.now();
	}
}

/** Takes the in-process mutex, then the cross-process lock, under one deadline. */
async function acquireLocks(
	paths: SessionPaths,
	options: ResolvedOptions,
	wait: { waitMs?: number; signal?: AbortSignal },
): Promise<{ lock: HeldLock; releaseMutex: () => void }> {
	const waitMs = wait.waitMs ?? options.waitMs;
	const started = Date.now();
	let releaseMutex: () => void;
	try {
		releaseMutex = await acquireMutex(paths.dir, waitMs, wait.signal);
	} catch (error) {
		if (error instanceof MutexTimeoutError) {
			const holder = { pid: process.pid, host: hostname(), since: error.holder.since };
			throw locked(paths.id, holder, Date.now() - started);
		}
		throw wait.signal?.aborted ? aborted(`waiting for the lease of session ${paths.id}`, error) : error;
	}
	try {
		const lock = await acquireFileLock(paths, {
			waitMs: Math.max(0, waitMs - (Date.now() - started)),
			staleMs: options.staleLeaseMs,
			signal: wait.signal,
			home: options.home,
		});
		return { lock, releaseMutex };
	} catch (error) {
		releaseMutex();
		throw wait.signal?.aborted ? aborted(`waiting for the lease of session ${paths.id}`, error) : error;
	}
}

/** Takes the lease and opens the writer (which brings metadata up to date and cuts off a torn tail). */
export async function acquireLease(
	paths: SessionPaths,
	options: ResolvedOptions,
	wait: { waitMs?: number; signal?: AbortSignal },
): Promise<FileSessionLease> {
	const { lock, releaseMutex } = await acquireLocks(paths, options, wait);
	try {
		// A holder that died between renaming metadata.json and marking the change is followed by this one.
		markMetadataChanged(paths.changes);
		const writer = await SessionWriter.open(paths, lock, options);
		return new FileSessionLease(paths.id, lock, writer, releaseMutex, options.metadataFlushMs);
	} catch (error) {
		lock.release();
		releaseMutex();
		throw error;
	}
}

/** Runs `work` under a lease taken for it alone; metadata is written before the lease is let go. */
export async function withLease<T>(
	paths: SessionPaths,
	options: ResolvedOptions,
	wait: { waitMs?: number; signal?: AbortSignal },
	work: (writer: SessionWriter) => Promise<T>,
): Promise<T> {
	const lease = await acquireLease(paths, options, wait);
	try {
		return await lease.run(work);
	} finally {
		await lease.release();
	}
}
