import { randomUUID } from "node:crypto";
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { SessionLease } from "@agent/session-format";
import type { FileSessionStore } from "@agent/session-fs";
import type { Entry } from "./conversation.js";
import { toRecordInput } from "./ours-records.js";
import { piHeader, toPiEntry } from "./pi-entries.js";

/** Where one conversation is written: our store, or a pi session file. */
export interface SessionSink {
	write(entries: readonly Entry[]): Promise<void>;
	/** Bytes written so far. */
	readonly bytes: number;
	/** Entries written so far. */
	readonly count: number;
	close(): Promise<void>;
}

/** Writes through our store, under its lease, one batch per call: the log is exactly what the store writes. */
export class StoreSink implements SessionSink {
	bytes = 0;
	count = 0;

	private constructor(
		readonly id: string,
		private readonly lease: SessionLease,
	) {}

	static async create(store: FileSessionStore, createdAt: number): Promise<StoreSink> {
		const metadata = await store.create({ createdAt: new Date(createdAt).toISOString() });
		return new StoreSink(metadata.id, await store.lease(metadata.id));
	}

	async write(entries: readonly Entry[]): Promise<void> {
		if (entries.length === 0) return;
		const result = await this.lease.append(entries.map(toRecordInput));
		this.bytes = result.metadata.logBytes;
		this.count += entries.length;
	}

	close(): Promise<void> {
		return this.lease.release();
	}
}

const FLUSH_CHARS = 1 << 20;

/** Writes a pi v3 session file (header, then one entry per line) named as pi names them. */
export class PiFileSink implements SessionSink {
	bytes = 0;
	count = 0;
	private pending: string[] = [];
	private pendingChars = 0;

	private constructor(
		readonly path: string,
		private readonly fd: number,
	) {}

	static create(dir: string, createdAt: number, cwd = "/work/project"): PiFileSink {
		mkdirSync(dir, { recursive: true });
		const id = randomUUID();
		const stamp = new Date(createdAt).toISOString().replace(/[:.]/g, "-");
		const path = join(dir, `${stamp}_${id}.jsonl`);
		const sink = new PiFileSink(path, openSync(path, "w"));
		sink.push(`${JSON.stringify(piHeader(id, createdAt, cwd))}\n`);
		return sink;
	}

	async write(entries: readonly Entry[]): Promise<void> {
		for (const entry of entries) this.push(`${JSON.stringify(toPiEntry(entry, this.count++))}\n`);
	}

	async close(): Promise<void> {
		this.flush();
		closeSync(this.fd);
	}

	private push(line: string): void {
		this.pending.push(line);
		this.pendingChars += line.length;
		if (this.pendingChars >= FLUSH_CHARS) this.flush();
	}

	private flush(): void {
		if (this.pending.length === 0) return;
		const bytes = Buffer.from(this.pending.join(""));
		let written = 0;
		while (written < bytes.length) written += writeSync(this.fd, bytes, written, bytes.length - written);
		this.bytes += bytes.length;
		this.pending = [];
		this.pendingChars = 0;
	}
}

/** Both formats at once, so they hold the identical conversation; sizes are counted on ours. */
export class PairSink {
	constructor(
		readonly ours: StoreSink,
		readonly pi: PiFileSink,
	) {}

	async write(entries: readonly Entry[]): Promise<void> {
		await this.ours.write(entries);
		await this.pi.write(entries);
	}

	get bytes(): number {
		return this.ours.bytes;
	}

	get count(): number {
		return this.ours.count;
	}

	async close(): Promise<void> {
		await this.ours.close();
		await this.pi.close();
	}
}
