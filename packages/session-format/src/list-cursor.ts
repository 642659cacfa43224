import { AgentSessionError } from "./errors.js";
import type { SessionMetadata } from "./metadata.js";
import { headOf } from "./text-cut.js";

/** Where a page of a listing ends: every store's listing order (newest lastMessageAt first, then id). */
export interface ListCursor {
	/** lastMessageAt in ms (listingTime). */
	t: number;
	id: string;
}

/** A session's place in every store's listing: lastMessageAt in ms, 0 when unreadable. */
export function listingTime(metadata: SessionMetadata): number {
	const time = Date.parse(metadata.lastMessageAt);
	return Number.isFinite(time) ? time : 0;
}

/** The nextCursor after `metadata`: base64url JSON, the same in every store, so pages read alike. */
export function encodeListCursor(metadata: SessionMetadata): string {
	const json = JSON.stringify({ t: listingTime(metadata), id: metadata.id } satisfies ListCursor);
	// btoa takes Latin-1: the JSON is ASCII (a number and a session id, which is checked when made).
	return btoa(json).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A cursor back to its place, or INVALID_ARGUMENT saying what to pass instead. */
export function decodeListCursor(cursor: string): ListCursor {
	try {
		const base64 = String(cursor).replace(/-/g, "+").replace(/_/g, "/");
		const value = JSON.parse(atob(base64)) as Partial<ListCursor>;
		if (typeof value.t === "number" && typeof value.id === "string") return { t: value.t, id: value.id };
	} catch {
		// reported below
	}
	throw new AgentSessionError(
		"INVALID_ARGUMENT",
		`${JSON.stringify(headOf(String(cursor), 40))} is not a cursor this store made; pass the nextCursor of a previous page`,
	);
}
