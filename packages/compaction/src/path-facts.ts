/**
 * What the planner keeps of each record of a path while it streams past: a few numbers in
 * typed arrays (about 17 bytes a record), never the record itself. Growable columns; no library
 * offers growable typed-array columns with a moving base, so they are written here.
 */

/** Flags of a record. */
export const BOUNDARY = 1; // may be the first record kept (before the tool-call rule)
export const STARTS_TURN = 2; // a user message or a branch summary
export const CONTEXT = 4; // the LLM sees it (message, custom message, branch summary)
export const TOOL_RESULT = 8;
export const COMPACTION = 16;

export class PathFacts {
	/** Path index of column slot 0: slots before it were dropped (they precede the latest compaction's kept records). */
	base = 0;
	length = 0;
	seqs = new Float64Array(1024);
	tokens = new Int32Array(1024);
	flags = new Uint8Array(1024);
	/** For a tool result: the path index of the latest earlier call with its id, or -1. */
	calls = new Int32Array(1024);

	/** One past the last path index. */
	get end(): number {
		return this.base + this.length;
	}

	push(seq: number, tokens: number, flags: number, call: number): void {
		if (this.length === this.seqs.length) this.grow();
		const i = this.length++;
		this.seqs[i] = seq;
		this.tokens[i] = tokens;
		this.flags[i] = flags;
		this.calls[i] = call;
	}

	seq(index: number): number {
		return this.seqs[index - this.base] as number;
	}

	token(index: number): number {
		return this.tokens[index - this.base] as number;
	}

	flag(index: number): number {
		return this.flags[index - this.base] as number;
	}

	call(index: number): number {
		return this.calls[index - this.base] as number;
	}

	/**
	 * How many records in [from, to) the LLM sees, and their tokens; a tool result paired with a
	 * call before `callsFrom` is not counted (its call is not in the context, so neither is it).
	 * One loop over the columns: it runs over every record of the region.
	 */
	contextMessages(from: number, to: number, callsFrom = Number.NEGATIVE_INFINITY): { count: number; tokens: number } {
		const flags = this.flags;
		const calls = this.calls;
		const tokens = this.tokens;
		let count = 0;
		let sum = 0;
		for (let i = from - this.base, last = to - this.base; i < last; i++) {
			const flag = flags[i] as number;
			if ((flag & CONTEXT) === 0) continue;
			if ((flag & TOOL_RESULT) !== 0 && (calls[i] as number) < callsFrom) continue;
			count++;
			sum += tokens[i] as number;
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

	/** Forgets every index before `index`. */
	dropBefore(index: number): void {
		const n = index - this.base;
		if (n <= 0) return;
		const keep = this.length - n;
		this.seqs.copyWithin(0, n, this.length);
		this.tokens.copyWithin(0, n, this.length);
		this.flags.copyWithin(0, n, this.length);
		this.calls.copyWithin(0, n, this.length);
		this.length = keep;
		this.base = index;
	}

	private grow(): void {
		const size = this.seqs.length * 2;
		const seqs = new Float64Array(size);
		seqs.set(this.seqs);
		this.seqs = seqs;
		const tokens = new Int32Array(size);
		tokens.set(this.tokens);
		this.tokens = tokens;
		const flags = new Uint8Array(size);
		flags.set(this.flags);
		this.flags = flags;
		const calls = new Int32Array(size);
		calls.set(this.calls);
		this.calls = calls;
	}
}
