import { SessionTree, type StoredRecord } from "@agent/session-format/reading";
import type { Api } from "./api.js";

/** The first page is small (it only has to fill the screen at the latest message); older pages are larger. */
const FIRST_PAGE = 200;
const PAGE = 1000;
/** Above any seq: "before" it means "the newest records". */
const NEWEST = 2_000_000_000;

/**
 * A session's records in the page, loaded newest first: the latest page is enough to open the
 * session at its latest message, older pages follow in the background (each a small request, so
 * the page stays responsive), and live records are added as they arrive.
 */
export class SessionData {
	tree = new SessionTree();
	/** True once every record down to seq 1 is loaded. */
	complete = false;
	private oldest = Number.POSITIVE_INFINITY;
	private stopped = false;

	constructor(
		private readonly api: Api,
		private readonly id: string,
		/** Called after each batch of records was added. */
		private readonly onChange: () => void,
	) {}

	/** Loads the newest page; resolves once it is in the tree. Older pages then load on their own. */
	async loadLatest(): Promise<void> {
		const page = await this.api.recordsBefore(this.id, NEWEST, FIRST_PAGE);
		if (this.stopped) return;
		for (const record of page.records) this.tree.add(record);
		this.oldest = page.records[0]?.seq ?? 1;
		this.complete = page.nextBefore === undefined;
		if (!this.complete) void this.loadOlder();
	}

	/** Stops loading (the view moved to another session). */
	stop(): void {
		this.stopped = true;
	}

	/**
	 * Fetches every record after the last one here (after a (re)subscription, or a gap in the live
	 * records); resolves with the records it added.
	 */
	async catchUp(): Promise<StoredRecord[]> {
		const added: StoredRecord[] = [];
		let after = this.tree.lastSeq;
		for (;;) {
			const page = await this.api.recordsAfter(this.id, after, PAGE);
			if (this.stopped) return added;
			for (const record of page.records) {
				if (!this.tree.has(record.seq) && this.add(record)) added.push(record);
			}
			if (page.nextAfter === undefined) break;
			after = page.nextAfter;
		}
		return added;
	}

	/** Adds a live record; false when it does not follow the last one (a gap: catch up). */
	add(record: StoredRecord): boolean {
		if (this.tree.has(record.seq)) return true;
		if (record.seq !== this.tree.lastSeq + 1) return false;
		this.tree.add(record);
		return true;
	}

	private async loadOlder(): Promise<void> {
		while (!this.stopped && this.oldest > 1) {
			const page = await this.api.recordsBefore(this.id, this.oldest, PAGE);
			if (this.stopped || page.records.length === 0) break;
			for (const record of page.records) this.tree.add(record);
			this.oldest = page.records[0]?.seq ?? 1;
			this.onChange();
		}
		if (this.stopped) return;
		// Rebuilt once in log order, so sibling order and "the latest label wins" hold as in a forward read.
		this.tree = new SessionTree(this.tree.records());
		this.complete = true;
		this.onChange();
	}
}
