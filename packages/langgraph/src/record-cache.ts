/**
 * The records (and rebuilt arrays) a checkpointer read or wrote lately, by session and seq, up to
 * a size: a run reads back what it just wrote (the next step diffs against the last value), so
 * most steps read nothing from the store. Least recently used entries go first.
 */
export class RecordCache {
	private readonly entries = new Map<string, { value: unknown; size: number }>();
	private used = 0;

	constructor(private readonly budget: number) {}

	get<T>(sessionId: string, key: number | string): T | undefined {
		const id = `${sessionId}\u0000${key}`;
		const entry = this.entries.get(id);
		if (!entry) return undefined;
		this.entries.delete(id);
		this.entries.set(id, entry);
		return entry.value as T;
	}

	set(sessionId: string, key: number | string, value: unknown, size: number): void {
		const id = `${sessionId}\u0000${key}`;
		const old = this.entries.get(id);
		if (old) {
			this.used -= old.size;
			this.entries.delete(id);
		}
		if (size > this.budget) return;
		this.entries.set(id, { value, size });
		this.used += size;
		for (const [oldest, entry] of this.entries) {
			if (this.used <= this.budget) break;
			this.entries.delete(oldest);
			this.used -= entry.size;
		}
	}

	forget(sessionId: string): void {
		const prefix = `${sessionId}\u0000`;
		for (const [id, entry] of this.entries) {
			if (!id.startsWith(prefix)) continue;
			this.entries.delete(id);
			this.used -= entry.size;
		}
	}
}
