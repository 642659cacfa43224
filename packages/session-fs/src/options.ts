import { DEFAULT_BACKWARD_CHUNK } from "./backward-reader.js";
import { invalidArgument } from "./errors.js";
import { DEFAULT_FORWARD_CHUNK, DEFAULT_MAX_LINE_BYTES } from "./line-reader.js";
import { resolveHome } from "./paths.js";

/** How durable an acknowledged append is. */
export type Durability = "write" | "fsync";

export interface FileStoreOptions {
	/** The store's home; default $AGENT_HOME, else ~/.agent. Sessions live in `<home>/sessions/<id>/`. */
	home?: string;
	/**
	 * "write" (default): an append is acknowledged once write(2) returned — it survives a crash of
	 * the process, not of the machine. "fsync": also after fdatasync(2) — it survives power loss.
	 */
	durability?: Durability;
	/** A lease whose holder has not refreshed it for this long is stale and may be taken over (min 2000). */
	staleLeaseMs?: number;
	/**
	 * Default wait for another writer's lease, in ms. Default: staleLeaseMs + 5000 (15 000), long
	 * enough to take over the lease of a holder that crashed while it held it.
	 */
	waitMs?: number;
	/**
	 * While a lease is held, metadata.json is rewritten at most this often (and always on release);
	 * the log itself is written on every append. Default 100; 0 rewrites it after every append.
	 */
	metadataFlushMs?: number;
	/** Bytes read per chunk when reading backwards (resume, tail); default 256 KiB. */
	backwardChunkBytes?: number;
	/** Bytes read per chunk when streaming forwards; default 1 MiB. */
	forwardChunkBytes?: number;
	/**
	 * The longest line (one record) the store reads, and so writes: longer lines are reported and
	 * skipped by readers instead of decoded (decoding a huge line blocks the process for seconds),
	 * and an append that would write one is refused. Default 256 MiB; a server answering requests
	 * sets less (see agent-sessions-server).
	 */
	maxLineBytes?: number;
	/** The clock used for timestamps (tests); default `() => new Date()`. */
	now?: () => Date;
}

export interface ResolvedOptions {
	home: string;
	durability: Durability;
	staleLeaseMs: number;
	waitMs: number;
	metadataFlushMs: number;
	backwardChunkBytes: number;
	forwardChunkBytes: number;
	maxLineBytes: number;
	now: () => Date;
}

export const DEFAULT_STALE_LEASE_MS = 10_000;

/**
 * A crashed holder's lease goes stale staleLeaseMs after its last refresh, and proper-lockfile
 * may have set that refresh up to a second ahead (filesystems with whole-second mtimes). A holder
 * killed between taking the lock and naming itself in it (or between un-naming itself and
 * removing it) can only be taken over that way, so the default wait outlasts the stale timeout.
 */
export function defaultWaitMs(staleLeaseMs: number): number {
	return staleLeaseMs + 5_000;
}

/** The options with their defaults, checked. */
export function resolveOptions(options: FileStoreOptions): ResolvedOptions {
	const durability = options.durability ?? "write";
	if (durability !== "write" && durability !== "fsync") {
		throw invalidArgument(`durability must be "write" or "fsync", got ${JSON.stringify(durability)}`);
	}
	const staleLeaseMs = options.staleLeaseMs ?? DEFAULT_STALE_LEASE_MS;
	return {
		home: resolveHome(options.home),
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
