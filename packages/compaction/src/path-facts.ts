/**
 * What the planner keeps of each record of a path while it streams past: a few numbers in
 * typed arrays (about 17 bytes a record), never the record itself. Growable columns; no library
 * offers growable typed-array columns with a moving base, so they are written here.
 *
 * The columns grow by whole chunks, never by copying into arrays twice as large: the copies a
 * doubling leaves behind live until the collector gets to them, and at 1 GB (325,000 records)
 * they doubled the planner's memory. A compaction met on the way frees the chunks before it.
 */

/** Flags of a record. */
export const BOUNDARY = 1; // may be the first record kept (before the tool-call rule)
export const STARTS_TURN = 2; // a user message or a branch summary
export const CONTEXT = 4; // the LLM sees it (message, custom message, branch summary)
export const TOOL_RESULT = 8;
export const COMPACTION = 16;

// Records per chunk (a power of two): 4096 records are 68 KB of columns.
const CHUNK_BITS = 12;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;

/** Where a run of consecutive path indices lies: a chunk's columns, from `at`, for `count` records. */
export interface FactRun {
	flags: Uint8Array;
	calls: Int32Array;
	tokens: Int32Array;
	at: number;
	count: number;
}

export class PathFacts {
	/** The first path index kept: those before it were dropped (they precede the latest compaction's kept records). */
	base = 0;
	/** Records kept, from `base` on. */
	private count = 0;
	/** Slots of the first chunk before `base` (dropped). */
	private skip = 0;
	// One typed array per chunk and column: plain typed arrays, no class of our own per chunk. The
	// first chunk comes with the lists, so that they never start empty and then take objects (V8
	// recompiled push on every plan when they did).
	private readonly seqChunks: Float64Array[] = [new Float64Array(CHUNK)];
	private readonly tokenChunks: Int32Array[] = [new Int32Array(CHUNK)];
	private readonly flagChunks: Uint8Array[] = [new Uint8Array(CHUNK)];
	/** For a tool result: the path index of the latest earlier call with its id, or -1. */
	private readonly callChunks: Int32Array[] = [new Int32Array(CHUNK)];

	/** One past the last path index. */
	get end(): number {
		return this.base + this.count;
	}

	push(seq: number, tokens: number, flags: number, call: number): void {
		const slot = this.skip + this.count;
		const chunk = slot >>> CHUNK_BITS;
		if (chunk === this.seqChunks.length) {
			this.seqChunks.push(new Float64Array(CHUNK));
			this.tokenChunks.push(new Int32Array(CHUNK));
			this.flagChunks.push(new Uint8Array(CHUNK));
			this.callChunks.push(new Int32Array(CHUNK));
		}
		const at = slot & MASK;
		(this.seqChunks[chunk] as Float64Array)[at] = seq;
		(this.tokenChunks[chunk] as Int32Array)[at] = tokens;
		(this.flagChunks[chunk] as Uint8Array)[at] = flags;
		(this.callChunks[chunk] as Int32Array)[at] = call;
		this.count++;
	}

	seq(index: number): number {
		const slot = index - this.base + this.skip;
		return (this.seqChunks[slot >>> CHUNK_BITS] as Float64Array)[slot & MASK] as number;
	}

	token(index: number): number {
		const slot = index - this.base + this.skip;
		return (this.tokenChunks[slot >>> CHUNK_BITS] as Int32Array)[slot & MASK] as number;
	}

	flag(index: number): number {
		const slot = index - this.base + this.skip;
		return (this.flagChunks[slot >>> CHUNK_BITS] as Uint8Array)[slot & MASK] as number;
	}

	call(index: number): number {
		const slot = index - this.base + this.skip;
		return (this.callChunks[slot >>> CHUNK_BITS] as Int32Array)[slot & MASK] as number;
	}

	/**
	 * The columns of the longest run of path indices from `from` (before `to`) that lies in one
	 * chunk: loops over a range go run by run, reading the typed arrays directly.
	 */
	run(from: number, to: number): FactRun {
		const slot = from - this.base + this.skip;
		const chunk = slot >>> CHUNK_BITS;
		const at = slot & MASK;
		return {
			flags: this.flagChunks[chunk] as Uint8Array,
			calls: this.callChunks[chunk] as Int32Array,
			tokens: this.tokenChunks[chunk] as Int32Array,
			at,
			count: Math.min(to - from, CHUNK - at),
		};
	}

	/**
	 * How many records in [from, to) the LLM sees, and their tokens; a tool result paired with a
	 * call before `callsFrom` is not counted (its call is not in the context, so neither is it).
	 * Loops over the columns: it runs over every record of the region.
	 */
	contextMessages(from: number, to: number, callsFrom = Number.NEGATIVE_INFINITY): { count: number; tokens: number } {
		let count = 0;
		let sum = 0;
		for (let i = from; i < to; ) {
			const { flags, calls, tokens, at, count: length } = this.run(i, to);
			for (let k = at, last = at + length; k < last; k++) {
				const flag = flags[k] as number;
				if ((flag & CONTEXT) === 0) continue;
				if ((flag & TOOL_RESULT) !== 0 && (calls[k] as number) < callsFrom) continue;
				count++;
				sum += tokens[k] as number;
			}
			i += length;
		}
		return { count, tokens: sum };
	}

	/** The first path index in [from, to) whose seq is >= `seq` (seqs rise along a path); `to` when none. */
	firstAtOrAfter(seq: number, from: number, to: number): number {
		let lo = Math.max(from, this.base);
		let hi = to;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (this.seq(mid) < seq) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	}

	/** Forgets every index before `index`, and frees the chunks that held only those. */
	dropBefore(index: number): void {
		const n = index - this.base;
		if (n <= 0) return;
		this.skip += n;
		this.count -= n;
		this.base = index;
		const whole = this.skip >>> CHUNK_BITS;
		if (whole === 0) return;
		this.seqChunks.splice(0, whole);
		this.tokenChunks.splice(0, whole);
		this.flagChunks.splice(0, whole);
		this.callChunks.splice(0, whole);
		this.skip &= MASK;
	}
}
