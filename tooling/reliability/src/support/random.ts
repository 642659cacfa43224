/** A small seeded PRNG (mulberry32), so a failing run can be replayed with RELIABILITY_SEED. */
export class Random {
	private state: number;

	constructor(readonly seed: number) {
		this.state = seed >>> 0;
	}

	/** A float in [0, 1). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	/** An integer in [min, max]. */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	chance(probability: number): boolean {
		return this.next() < probability;
	}

	pick<T>(items: readonly T[]): T {
		if (items.length === 0) throw new Error("pick from an empty list");
		return items[this.int(0, items.length - 1)] as T;
	}

	/** A seed for a child process or a sub-generator. */
	fork(): number {
		return this.int(1, 0x7fffffff);
	}
}
