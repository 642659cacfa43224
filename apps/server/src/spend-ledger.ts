import type { SessionMetadata, SessionStore, StoredRecord } from "@agent/session-format";
import { HttpError } from "./http-error.js";
import type { RequestUser } from "./users.js";

const DAY_MS = 86_400_000;
/** Sessions listed per page while adding up a user's day. */
const PAGE = 100;

interface Counted {
	/** The session's last seq counted so far. */
	lastSeq: number;
	/** USD of its assistant messages written today (UTC) up to lastSeq. */
	cost: number;
}

/** USD a record cost, when it is an assistant message written at or after `since` (ms). */
function costOf(record: StoredRecord, since: number): number {
	if (record.recordType !== "message" || record.role !== "assistant") return 0;
	if (!(Date.parse(record.timestamp) >= since)) return 0;
	return record.usage?.cost?.total ?? 0;
}

/**
 * What each user spent on model calls today (UTC), from the store: the assistant messages written
 * today in the sessions they created, whoever's instance ran them. Each session is read once a day
 * from where today began (backwards from its end), then only its new records, so a check costs a
 * listing of the user's sessions active today and what they wrote since the last check.
 */
export class SpendLedger {
	private day = -1;
	private readonly counted = new Map<string, Counted>();

	constructor(
		private readonly store: SessionStore,
		private readonly now: () => number = Date.now,
	) {}

	async spentToday(user: string): Promise<number> {
		const today = Math.floor(this.now() / DAY_MS);
		if (today !== this.day) {
			this.day = today;
			this.counted.clear();
		}
		const since = today * DAY_MS;
		let spent = 0;
		let cursor: string | undefined;
		do {
			const page = await this.store.list({
				createdBy: user,
				archived: true,
				limit: PAGE,
				...(cursor ? { cursor } : {}),
			});
			for (const metadata of page.sessions) {
				// Newest activity first: the rest of the listing wrote nothing today.
				if (Date.parse(metadata.lastMessageAt) < since) return spent;
				spent += await this.sessionCost(metadata, since);
			}
			cursor = page.nextCursor;
		} while (cursor);
		return spent;
	}

	/**
	 * Refuses a turn (429 SPEND_LIMIT_REACHED, until midnight UTC) once the user spent `limit` USD
	 * today. A turn that starts under the cap may end over it: the cap is checked before each turn.
	 */
	async check(user: string, limit: number): Promise<void> {
		const spent = await this.spentToday(user);
		if (spent < limit) return;
		const untilMidnight = Math.max(1, Math.ceil(((this.day + 1) * DAY_MS - this.now()) / 1000));
		throw new HttpError(
			429,
			"SPEND_LIMIT_REACHED",
			`agent-sessions-server: ${user} spent $${spent.toFixed(4)} on model calls today (UTC), the daily limit is $${limit}; no new turns until midnight UTC (server.limits.daily_spend_limit or server.users[].daily_spend_limit)`,
			{ retryAfter: untilMidnight },
		);
	}

	private async sessionCost(metadata: SessionMetadata, since: number): Promise<number> {
		const known = this.counted.get(metadata.id);
		if (known && known.lastSeq >= metadata.lastSeq) return known.cost;
		const counted = known ? await this.readOn(metadata, known, since) : await this.readToday(metadata, since);
		const latest = this.counted.get(metadata.id);
		if (!latest || latest.lastSeq < counted.lastSeq) this.counted.set(metadata.id, counted);
		return counted.cost;
	}

	/** A session not counted yet today: its records from the end back to where today began. */
	private async readToday(metadata: SessionMetadata, since: number): Promise<Counted> {
		for (let n = 64; ; n *= 4) {
			const records = await this.store.tail(metadata.id, n);
			const first = records[0];
			if (!first || first.seq <= 1 || records.length < n || Date.parse(first.timestamp) < since) {
				let cost = 0;
				for (const record of records) cost += costOf(record, since);
				return { lastSeq: records[records.length - 1]?.seq ?? 0, cost };
			}
		}
	}

	private async readOn(metadata: SessionMetadata, known: Counted, since: number): Promise<Counted> {
		let { cost, lastSeq } = known;
		for await (const record of this.store.readFrom(metadata.id, known.lastSeq + 1)) {
			cost += costOf(record, since);
			lastSeq = record.seq;
		}
		return { cost, lastSeq };
	}
}

/** Refuses a turn or compaction of a user over their daily spend cap (429), if they have one. */
export async function checkSpend(
	guard: { dailySpendLimitOf(user: RequestUser): number | undefined },
	ledger: SpendLedger,
	user: RequestUser,
): Promise<void> {
	const limit = guard.dailySpendLimitOf(user);
	if (limit !== undefined && user.name !== undefined) await ledger.check(user.name, limit);
}
