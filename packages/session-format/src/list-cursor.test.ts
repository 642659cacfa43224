import { describe, expect, it } from "vitest";
import { decodeListCursor, encodeListCursor, listingTime } from "./list-cursor.js";
import type { SessionMetadata } from "./metadata.js";

const session = { id: "01M85ZVHG0GPBCA32F9HP12G9Q", lastMessageAt: "2026-11-24T05:00:00.000Z" } as SessionMetadata;

describe("list cursors", () => {
	it("round-trip a session's place in the listing, as base64url without padding", () => {
		const cursor = encodeListCursor(session);
		expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
		expect(decodeListCursor(cursor)).toEqual({ t: Date.parse(session.lastMessageAt), id: session.id });
	});

	it("use 0 for an unreadable lastMessageAt", () => {
		expect(listingTime({ ...session, lastMessageAt: "not a time" })).toBe(0);
	});

	it("refuse a cursor no store made, saying what to pass", () => {
		for (const bad of ["", "%%%", btoa("{}"), btoa('{"t":"x","id":1}')]) {
			expect(() => decodeListCursor(bad)).toThrow(/is not a cursor this store made; pass the nextCursor/);
		}
	});
});
