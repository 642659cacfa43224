import { describe, expect, it } from "vitest";
import { expectCode, ISO_TIME, readAllRecords, type SuiteContext, textOf, user } from "./fixtures.js";

export function describeLease(context: SuiteContext): void {
	describe("the single-writer lease", () => {
		it("a held lease locks other writers out with SESSION_LOCKED naming the holder; appends through it proceed", async () => {
			const { store } = context;
			const { id } = await store.create();
			const lease = await store.lease(id);
			try {
				expect(lease.sessionId).toBe(id);
				expect(typeof lease.holder.pid).toBe("number");
				expect(lease.holder.host.length).toBeGreaterThan(0);
				expect(lease.holder.since).toMatch(ISO_TIME);
				const error = await expectCode(store.append(id, [user("blocked")], { waitMs: 0 }), "SESSION_LOCKED");
				expect((error as Error & { holder?: { pid: number } }).holder?.pid).toBe(lease.holder.pid);
				expect(error.message).toContain(String(lease.holder.pid));
				await expectCode(store.lease(id, { waitMs: 0 }), "SESSION_LOCKED");
				const first = await lease.append([user("a"), user("b")]);
				const second = await lease.append([user("c")]);
				expect([...first.records, ...second.records].map((r) => r.seq)).toEqual([1, 2, 3]);
			} finally {
				await lease.release();
			}
			const after = await store.append(id, [user("d")]);
			expect(after.records[0]?.seq).toBe(4);
			expect((await store.metadata(id)).lastSeq).toBe(4);
		});

		it("readers never wait for the lease", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [user("a")]);
			const lease = await store.lease(id);
			try {
				await lease.append([user("b")]);
				expect((await readAllRecords(store, id)).map(textOf)).toEqual(["a", "b"]);
				expect((await store.tail(id, 1)).map(textOf)).toEqual(["b"]);
				expect((await store.open(id)).context.messages.map(textOf)).toEqual(["a", "b"]);
				expect((await store.metadata(id)).lastSeq).toBe(2);
				expect((await store.list()).sessions.map((s) => s.id)).toEqual([id]);
			} finally {
				await lease.release();
			}
		});

		it("a writer waiting for the lease goes on once it is released, after the holder's records", async () => {
			const { store } = context;
			const { id } = await store.create();
			const lease = await store.lease(id);
			const waiting = store.append(id, [user("after")], { waitMs: 120_000 });
			await lease.append([user("during")]);
			await lease.release();
			const { records } = await waiting;
			expect(records[0]?.seq).toBe(2);
			expect((await readAllRecords(store, id)).map(textOf)).toEqual(["during", "after"]);
		});

		it("a released lease writes no more: the caller's mistake, INVALID_ARGUMENT in every store", async () => {
			const { store } = context;
			const { id } = await store.create();
			const lease = await store.lease(id);
			await lease.release();
			await expectCode(lease.append([user("late")]), "INVALID_ARGUMENT");
			expect(await readAllRecords(store, id)).toEqual([]);
		});
	});
}
