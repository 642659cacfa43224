import type { Durability } from "@agent/session-fs";

/** What a writer child (src/children/writer.ts) is told to do. */
export interface WriterConfig {
	home: string;
	sessions: string[];
	/** Appends to make (each a batch of 1..batchMax records); -1 = until killed. */
	appends: number;
	/** The payload tag of every record this writer writes. */
	tag: string;
	/** The payload number of its first record (the next ones count up by one). */
	firstN?: number;
	batchMax: number;
	/** One batch in about bigEvery carries records of up to bigBytes (a long write, to be killed in); 0 = never. */
	bigEvery: number;
	bigBytes: number;
	durability: Durability;
	/** Take each session's lease once and append through it, instead of a lease per append. */
	viaLease: boolean;
	staleLeaseMs: number;
	waitMs: number;
	metadataFlushMs: number;
	/** Go on after a failed append (a disk-full writer) instead of stopping at the first error. */
	continueOnError?: boolean;
	seed: number;
}

export function writerConfig(
	base: Pick<WriterConfig, "home" | "sessions" | "tag" | "seed"> & Partial<WriterConfig>,
): WriterConfig {
	return {
		appends: -1,
		batchMax: 1,
		bigEvery: 0,
		bigBytes: 0,
		durability: "write",
		viaLease: false,
		staleLeaseMs: 2000,
		waitMs: 60_000,
		metadataFlushMs: 100,
		...base,
	};
}
