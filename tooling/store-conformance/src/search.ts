import { describe, expect, it } from "vitest";
import { assistant, custom, expectCode, type SuiteContext, toolResult, user } from "./fixtures.js";

export function describeSearch(context: SuiteContext): void {
	describe("search (full text of messages)", () => {
		it("finds message text case-insensitively across sessions: session, seq, role and a snippet around the match", async () => {
			const { store } = context;
			const older = await store.create({ name: "older", createdAt: "2024-01-01T00:00:00.000Z" });
			const newer = await store.create({ createdAt: "2024-01-01T00:00:00.000Z" });
			await store.append(older.id, [
				user("How do I rotate the Kubernetes secrets?", "2024-02-01T00:00:00.000Z"),
				assistant("Use kubectl; nothing else to say.", { timestamp: "2024-02-01T00:00:01.000Z" }),
			]);
			await store.append(newer.id, [
				user("unrelated", "2024-03-01T00:00:00.000Z"),
				assistant("Restart the pods after you ROTATE\nthe   kubernetes secrets.", {
					timestamp: "2024-03-01T00:00:01.000Z",
				}),
			]);
			const hits = await store.search("rotate the kubernetes");
			expect(hits.map((hit) => [hit.sessionId, hit.seq, hit.role])).toEqual([
				[newer.id, 2, "assistant"],
				[older.id, 1, "user"],
			]);
			expect(hits[0]?.snippet).toBe("Restart the pods after you ROTATE the kubernetes secrets.");
			expect(hits[1]?.sessionName).toBe("older");
			expect(hits[1]?.timestamp).toBe("2024-02-01T00:00:00.000Z");
			expect(await store.search("no such words anywhere")).toEqual([]);
		});

		it("cuts long snippets around the match with an ellipsis", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [user(`${"a".repeat(500)} needle ${"b".repeat(500)}`)]);
			const [hit] = await store.search("NEEDLE");
			expect(hit?.snippet.startsWith("…")).toBe(true);
			expect(hit?.snippet.endsWith("…")).toBe(true);
			expect(hit?.snippet).toContain(" needle ");
			expect((hit?.snippet.length ?? 0) < 200).toBe(true);
		});

		it("matches text blocks of messages only: not tool call arguments, custom records or JSON keys", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [
				user("plain"),
				assistant("calling a tool", { toolCallId: "call-1" }),
				toolResult("call-1", "total 0 listed"),
				custom({ note: "zebra stripes" }),
			]);
			expect(await store.search("zebra")).toEqual([]);
			expect(await store.search("recordType")).toEqual([]);
			expect((await store.search("command")).length).toBe(0);
			expect((await store.search("listed")).map((hit) => [hit.seq, hit.role])).toEqual([[3, "toolResult"]]);
			expect((await store.search('say "hi"')).length).toBe(0);
			await store.append(id, [user('then say "hi" \\ back')]);
			expect((await store.search('say "hi" \\ back')).map((hit) => hit.seq)).toEqual([5]);
		});

		it("skips archived sessions unless asked, scopes by cwd, and stops at the limit", async () => {
			const { store } = context;
			const here = await store.create({ cwd: "/work/a" });
			const there = await store.create({ cwd: "/work/b" });
			const gone = await store.create();
			for (const { id } of [here, there, gone]) await store.append(id, [user("shared word"), user("shared again")]);
			await store.archive(gone.id);
			expect(new Set((await store.search("shared")).map((hit) => hit.sessionId))).toEqual(new Set([here.id, there.id]));
			expect((await store.search("shared", { archived: "only" })).map((hit) => hit.sessionId)).toEqual([
				gone.id,
				gone.id,
			]);
			expect((await store.search("shared", { archived: true })).length).toBe(6);
			expect((await store.search("shared", { cwd: "/work/b" })).map((hit) => hit.sessionId)).toEqual([
				there.id,
				there.id,
			]);
			expect((await store.search("shared", { limit: 3 })).length).toBe(3);
		});

		it("scopes by the user that created a session (createdBy), in the store: the limit counts only their hits", async () => {
			const { store } = context;
			const mine = await store.create({ createdBy: "ana" });
			const theirs = await store.create({ createdBy: "bo" });
			const nobody = await store.create();
			await store.append(mine.id, [user("budget draft"), user("budget final")]);
			for (const { id } of [theirs, nobody])
				await store.append(id, [user("budget a"), user("budget b"), user("budget c")]);
			const hits = await store.search("budget", { createdBy: "ana", limit: 2 });
			expect(hits.map((hit) => [hit.sessionId, hit.seq])).toEqual([
				[mine.id, 1],
				[mine.id, 2],
			]);
			expect(new Set((await store.search("budget", { createdBy: "bo" })).map((hit) => hit.sessionId))).toEqual(
				new Set([theirs.id]),
			);
			expect(await store.search("budget", { createdBy: "carol" })).toEqual([]);
		});

		it("a word in thousands of messages: the first hits in listing order, archived skipped, a rare phrase of common words found", async () => {
			const { store } = context;
			// 250 sessions of 9 messages (2,250 rows holding "common"): PostgreSQL walks the listing for such a word.
			const ids: string[] = [];
			for (let s = 0; s < 250; s++) {
				const { id } = await store.create({ createdAt: "2024-01-01T00:00:00.000Z" });
				const minute = new Date(Date.UTC(2024, 0, 2, 0, s)).toISOString();
				await store.append(
					id,
					Array.from({ length: 9 }, (_, i) => user(`common words in message ${i} of session ${s}.`, minute)),
				);
				ids.push(id);
			}
			await store.archive(ids[249] as string);
			const newestFirst = ids.slice(0, 249).reverse();
			const expected = newestFirst.flatMap((id) => Array.from({ length: 9 }, (_, i) => [id, i + 1]));
			expect((await store.search("COMMON", { limit: 100 })).map((hit) => [hit.sessionId, hit.seq])).toEqual(
				expected.slice(0, 100),
			);
			expect((await store.search("common", { limit: 2_300 })).length).toBe(249 * 9);
			expect((await store.search("message 7 of session 3.")).map((hit) => [hit.sessionId, hit.seq])).toEqual([
				[ids[3], 8],
			]);
			expect((await store.search("common", { archived: "only" })).map((hit) => hit.sessionId)).toEqual(
				Array(9).fill(ids[249]),
			);
		});

		it("whitespace in the query matches any whitespace in the text: line breaks, tabs, U+00A0, U+2028", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [
				user("rotate\nthe keys"),
				user("rotate\t the keys"),
				user("rotate\u00a0the keys"),
				user("rotate\u2028the keys"),
				user("rotate-the keys"),
			]);
			expect((await store.search("Rotate the KEYS")).map((hit) => hit.seq)).toEqual([1, 2, 3, 4]);
		});

		it("rejects an empty query and a bad limit with INVALID_ARGUMENT", async () => {
			const { store } = context;
			await expectCode(store.search("   "), "INVALID_ARGUMENT");
			await expectCode(store.search("x", { limit: 0 }), "INVALID_ARGUMENT");
		});
	});
}
