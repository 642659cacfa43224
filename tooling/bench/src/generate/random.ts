/** A small seeded PRNG (sfc32): the same seed gives the same conversation on every machine. */
export class Random {
	private a: number;
	private b: number;
	private c: number;
	private d: number;

	constructor(seed: number) {
		this.a = 0x9e3779b9;
		this.b = 0x243f6a88;
		this.c = 0xb7e15162;
		this.d = seed >>> 0;
		for (let i = 0; i < 15; i++) this.next();
	}

	/** A float in [0, 1). */
	next(): number {
		const t = (((this.a + this.b) | 0) + this.d) | 0;
		this.d = (this.d + 1) | 0;
		this.a = this.b ^ (this.b >>> 9);
		this.b = (this.c + (this.c << 3)) | 0;
		this.c = (this.c << 21) | (this.c >>> 11);
		this.c = (this.c + t) | 0;
		return (t >>> 0) / 4294967296;
	}

	/** An integer in [min, max]. */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	chance(probability: number): boolean {
		return this.next() < probability;
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)] as T;
	}

	/** Log-normally distributed around `median`, clamped to [min, max]: most outputs short, a few very long. */
	logNormal(median: number, spread: number, min: number, max: number): number {
		const u = Math.max(this.next(), 1e-12);
		const v = this.next();
		const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
		return Math.round(Math.min(max, Math.max(min, median * Math.exp(normal * spread))));
	}

	/** An id in base 62, like the tool call ids providers hand out. */
	id(prefix: string, length: number): string {
		let out = prefix;
		for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(this.next() * 62)];
		return out;
	}
}

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
