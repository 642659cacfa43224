/** Buckets idle this long are full again and are forgotten at the next sweep. */
const SWEEP_MS = 60_000;

interface Bucket {
	tokens: number;
	at: number;
}

/**
 * Token buckets per key (a client): each holds up to `burst` tokens and refills at `perSecond`.
 * A request takes one token; with none left it waits `retryAfterSeconds`. Keys idle long enough
 * to be full are swept, so memory follows the clients active in the last minute or so.
 */
export class TokenBuckets {
	private readonly buckets = new Map<string, Bucket>();
	private lastSweep: number;

	constructor(
		readonly perSecond: number,
		readonly burst: number,
		private readonly now: () => number = Date.now,
	) {
		this.lastSweep = now();
	}

	/** Takes a token for `key`: undefined when granted, else the seconds until one is there again. */
	take(key: string): number | undefined {
		if (this.perSecond === Number.POSITIVE_INFINITY) return undefined;
		const wait = this.peek(key);
		if (wait !== undefined) return wait;
		(this.buckets.get(key) as Bucket).tokens -= 1;
		return undefined;
	}

	/** Like take, without taking: undefined when `key` has a token now. */
	peek(key: string): number | undefined {
		if (this.perSecond === Number.POSITIVE_INFINITY) return undefined;
		const now = this.now();
		this.sweep(now);
		let bucket = this.buckets.get(key);
		if (!bucket) {
			bucket = { tokens: this.burst, at: now };
			this.buckets.set(key, bucket);
		}
		bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
		bucket.at = now;
		if (bucket.tokens >= 1) return undefined;
		return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
	}

	get size(): number {
		return this.buckets.size;
	}

	private sweep(now: number): void {
		if (now - this.lastSweep < SWEEP_MS) return;
		this.lastSweep = now;
		const fullAfterMs = (this.burst / this.perSecond) * 1000;
		for (const [key, bucket] of this.buckets) {
			if (now - bucket.at >= fullAfterMs) this.buckets.delete(key);
		}
	}
}
