import { describe, expect, it } from "vitest";
import { assistant, expectCode, readAllRecords, type SuiteContext, textOf, user } from "./fixtures.js";

export function describeLifecycle(context: SuiteContext): void {
	describe("archive, delete, identity, uptime, deferred persistence", () => {
		it("archive sets archivedAt and hides the session; unarchive brings it back; the log is untouched", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [user("a")]);
			const archived = await store.archive(id);
			expect(archived.archivedAt).toBeDefined();
			expect((await store.list()).sessions).toEqual([]);
			const back = await store.unarchive(id);
			expect(back.archivedAt).toBeUndefined();
			expect((await store.list()).sessions.map((s) => s.id)).toEqual([id]);
			const records = await readAllRecords(store, id);
			expect(records.filter((r) => r.recordType === "message").map(textOf)).toEqual(["a"]);
			// Both changes are archive_change records: the log holds the archive state.
			expect(records.filter((r) => r.recordType === "archive_change").map((r) => r.seq)).toEqual([2, 3]);
			// Archiving twice writes nothing more.
			await store.archive(id);
			const again = await store.archive(id);
			expect(again.lastSeq).toBe(4);
			expect(again.archivedAt).toBeDefined();
		});

		it("delete removes the session and nothing else", async () => {
			const { store } = context;
			const doomed = await store.create();
			const other = await store.create();
			await store.append(doomed.id, [user("bye")]);
			await store.append(other.id, [user("stay")]);
			await store.delete(doomed.id);
			await expectCode(store.metadata(doomed.id), "SESSION_NOT_FOUND");
			await expectCode(store.open(doomed.id), "SESSION_NOT_FOUND");
			expect((await store.list({ archived: true })).sessions.map((s) => s.id)).toEqual([other.id]);
			expect((await readAllRecords(store, other.id)).map(textOf)).toEqual(["stay"]);
		});

		it("findByIdentity returns the latest session of a key that is not archived", async () => {
			const { store } = context;
			const key = "slack:C1/user:U2";
			const older = await store.create({ identityKey: key });
			await store.append(older.id, [user("1", "2024-01-01T00:00:00.000Z")]);
			const newer = await store.create({ identityKey: key });
			await store.append(newer.id, [user("2", "2024-02-01T00:00:00.000Z")]);
			await store.create({ identityKey: "someone-else" });
			expect((await store.findByIdentity(key))?.id).toBe(newer.id);
			await store.archive(newer.id);
			expect((await store.findByIdentity(key))?.id).toBe(older.id);
			expect(await store.findByIdentity("nobody")).toBeUndefined();
		});

		it("addUptime accumulates active seconds and rejects negative ones", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.addUptime(id, 30);
			const after = await store.addUptime(id, 12.5);
			expect(after.uptimeSeconds).toBe(42.5);
			expect((await store.metadata(id)).uptimeSeconds).toBe(42.5);
			await expectCode(store.addUptime(id, -1), "INVALID_ARGUMENT");
		});

		it("a deferred session is readable at once but listed only from its first assistant message on", async () => {
			const { store } = context;
			const { id } = await store.create({ deferred: true, name: "later" });
			expect((await store.metadata(id)).name).toBe("later");
			expect((await store.list()).sessions).toEqual([]);
			await store.append(id, [user("hello?")]);
			expect((await readAllRecords(store, id)).map(textOf)).toEqual(["hello?"]);
			expect((await store.open(id)).context.messages.map(textOf)).toEqual(["hello?"]);
			expect((await store.list()).sessions).toEqual([]);
			await store.append(id, [assistant("hi!")]);
			const listed = (await store.list()).sessions;
			expect(listed.map((s) => s.id)).toEqual([id]);
			expect(listed[0]?.messageCount).toBe(2);
			expect((await readAllRecords(store, id)).map((r) => r.seq)).toEqual([1, 2]);
			await store.append(id, [user("more")]);
			expect((await store.metadata(id)).lastSeq).toBe(3);
		});
	});
}
