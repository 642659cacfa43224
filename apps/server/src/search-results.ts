import type { SearchHit } from "@agent/session-format";

/** A search counts its hits up to this many: "2,000+ matches" past it. */
export const SEARCH_COUNT_CAP = 2000;
/** Pages after the first come from the first page's search for this long. */
const KEEP_MS = 60_000;
const KEEP_ENTRIES = 8;

/**
 * The hits of the recent searches, so that "show more" pages through the hits the first page
 * counted instead of searching every log again. The first page of a search always searches
 * afresh (new messages count); later pages of it reuse its hits for a minute.
 */
export class SearchResults {
	private readonly entries = new Map<string, { hits: SearchHit[]; at: number }>();

	async get(key: string, fresh: boolean, search: () => Promise<SearchHit[]>): Promise<SearchHit[]> {
		const now = Date.now();
		const kept = this.entries.get(key);
		if (!fresh && kept && now - kept.at < KEEP_MS) return kept.hits;
		const hits = await search();
		this.entries.delete(key);
		this.entries.set(key, { hits, at: now });
		for (const old of this.entries.keys()) {
			if (this.entries.size <= KEEP_ENTRIES) break;
			this.entries.delete(old);
		}
		return hits;
	}
}
