import type { SessionMetadata } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { expectCode, type SuiteContext, user } from "./fixtures.js";

const ids = (sessions: readonly SessionMetadata[]) => sessions.map((s) => s.id);

export function describeList(context: SuiteContext): void {
	describe("list (S7.5)", () => {
		it("S7.5: returns every session, newest lastMessageAt first", async () => {
			const { store } = context;
			const a = await store.create({ createdAt: "2024-01-01T00:00:00.000Z" });
			const b = await store.create({ createdAt: "2024-01-01T00:00:00.000Z" });
			const c = await store.create({ createdAt: "2024-01-01T00:00:00.000Z" });
			await store.append(b.id, [user("b", "2024-03-01T00:00:00.000Z")]);
			await store.append(a.id, [user("a", "2024-02-01T00:00:00.000Z")]);
			await store.append(c.id, [user("c", "2024-04-01T00:00:00.000Z")]);
			expect(ids((await store.list()).sessions)).toEqual([c.id, b.id, a.id]);
			await store.append(a.id, [user("a again", "2024-05-01T00:00:00.000Z")]);
			expect(ids((await store.list()).sessions)).toEqual([a.id, c.id, b.id]);
		});

		it("hides archived sessions unless asked: archived true lists both, 'only' just them", async () => {
			const { store } = context;
			const kept = await store.create({ name: "kept" });
			const gone = await store.create({ name: "gone" });
			await store.archive(gone.id);
			expect(ids((await store.list()).sessions)).toEqual([kept.id]);
			expect(ids((await store.list({ archived: "only" })).sessions)).toEqual([gone.id]);
			expect(new Set(ids((await store.list({ archived: true })).sessions))).toEqual(new Set([kept.id, gone.id]));
		});

		it("filters by source, by text in the name or id (case-insensitive), and by identity key", async () => {
			const { store } = context;
			const cron = await store.create({ source: "cron", cronJobId: "j", name: "Nightly Backup" });
			const chat = await store.create({ name: "Kubernetes pods", identityKey: "telegram:1/user:2" });
			expect(ids((await store.list({ source: "cron" })).sessions)).toEqual([cron.id]);
			expect(ids((await store.list({ source: "interactive" })).sessions)).toEqual([chat.id]);
			expect(ids((await store.list({ search: "kubernetes" })).sessions)).toEqual([chat.id]);
			expect(ids((await store.list({ search: "BACKUP" })).sessions)).toEqual([cron.id]);
			expect(ids((await store.list({ search: chat.id.slice(-8).toLowerCase() })).sessions)).toEqual([chat.id]);
			expect(ids((await store.list({ identityKey: "telegram:1/user:2" })).sessions)).toEqual([chat.id]);
			expect((await store.list({ identityKey: "telegram:1/user:3" })).sessions).toEqual([]);
		});

		it("filters by the user that created a session, in the store: a page of one user's sessions is full, its cursor pages on through theirs only", async () => {
			const { store } = context;
			const ana: string[] = [];
			for (let i = 0; i < 5; i++) {
				const mine = await store.create({ createdBy: "ana" });
				const theirs = await store.create({ createdBy: "bo" });
				await store.append(mine.id, [user(`ana ${i}`, `2024-01-0${i + 1}T00:00:00.000Z`)]);
				await store.append(theirs.id, [user(`bo ${i}`, `2024-01-0${i + 1}T12:00:00.000Z`)]);
				ana.unshift(mine.id);
			}
			await store.create({ name: "nobody's" });
			expect((await store.metadata(ana[0] as string)).createdBy).toBe("ana");
			const first = await store.list({ createdBy: "ana", limit: 2 });
			expect(ids(first.sessions)).toEqual(ana.slice(0, 2));
			const rest = await store.list({ createdBy: "ana", cursor: first.nextCursor as string });
			expect(ids(rest.sessions)).toEqual(ana.slice(2));
			expect(rest.nextCursor).toBeUndefined();
			expect((await store.list({ createdBy: "bo" })).sessions.every((s) => s.createdBy === "bo")).toBe(true);
			expect((await store.list({ createdBy: "Ana" })).sessions).toEqual([]);
			await expectCode(store.list({ createdBy: "a\u0000" }), "INVALID_ARGUMENT");
		});

		it("pages with limit and an opaque cursor: every session once, in order, and no cursor after the last page", async () => {
			const { store } = context;
			for (let i = 0; i < 7; i++) {
				const { id } = await store.create();
				await store.append(id, [user(String(i), `2024-01-0${i + 1}T00:00:00.000Z`)]);
			}
			const everything = ids((await store.list()).sessions);
			const seen: string[] = [];
			let cursor: string | undefined;
			const sizes: number[] = [];
			do {
				const page = await store.list({ limit: 3, ...(cursor ? { cursor } : {}) });
				sizes.push(page.sessions.length);
				seen.push(...ids(page.sessions));
				cursor = page.nextCursor;
			} while (cursor);
			expect(sizes).toEqual([3, 3, 1]);
			expect(seen).toEqual(everything);
			await expectCode(store.list({ cursor: "not a cursor" }), "INVALID_ARGUMENT");
			await expectCode(store.list({ limit: 0 }), "INVALID_ARGUMENT");
		});
	});
}
