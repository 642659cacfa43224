import { describe, expect, it } from "vitest";
import { assistant, compaction, type SuiteContext, user } from "./fixtures.js";

export function describeVerify(context: SuiteContext): void {
	describe("verify and repair", () => {
		it("a healthy session verifies clean, alone and among all sessions", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [user("a"), assistant("b"), compaction(2, "S"), user("c")]);
			await store.branch(id, 2);
			await store.append(id, [user("c2")]);
			const other = await store.create();
			const [report] = await store.verify(id);
			expect(report?.sessionId).toBe(id);
			expect(report?.problems).toEqual([]);
			expect(report?.ok).toBe(true);
			expect(report?.records).toBe(6);
			const all = await store.verify();
			expect(new Set(all.map((r) => r.sessionId))).toEqual(new Set([id, other.id]));
			expect(all.every((r) => r.ok)).toBe(true);
		});

		it("repair rebuilds metadata and changes no record", async () => {
			const { store } = context;
			const { id } = await store.create({ name: "keep me" });
			await store.append(id, [user("a"), assistant("b")]);
			const before = await store.metadata(id);
			const report = await store.repair(id);
			expect(report.repaired).toBe(true);
			expect(report.ok).toBe(true);
			const after = await store.metadata(id);
			expect(after).toEqual(before);
		});
	});
}
