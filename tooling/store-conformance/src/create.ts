import { describe, expect, it } from "vitest";
import { collect, expectCode, ISO_TIME, type SuiteContext } from "./fixtures.js";

export function describeCreate(context: SuiteContext): void {
	describe("create (S7.1, S7.7)", () => {
		it("S7.1: a new session is empty, listed, and readable at once", async () => {
			const { store } = context;
			const metadata = await store.create();
			expect(metadata.lastSeq).toBe(0);
			expect(metadata.messageCount).toBe(0);
			expect(metadata.source).toBe("interactive");
			expect(metadata.createdAt).toMatch(ISO_TIME);
			expect(metadata.lastMessageAt).toBe(metadata.createdAt);
			expect(metadata.archivedAt).toBeUndefined();
			expect(await store.metadata(metadata.id)).toEqual(metadata);
			expect(await collect(store.read(metadata.id))).toEqual([]);
			expect(await store.tail(metadata.id, 5)).toEqual([]);
			const opened = await store.open(metadata.id);
			expect(opened.path).toEqual([]);
			expect(opened.context.messages).toEqual([]);
			expect(opened.context.leafSeq).toBeNull();
			expect((await store.list()).sessions.map((s) => s.id)).toEqual([metadata.id]);
		});

		it("S7.7: a cron-triggered session is tagged with source cron and its cronJobId", async () => {
			const { store } = context;
			const cron = await store.create({ source: "cron", cronJobId: "nightly-report" });
			await store.create();
			expect(cron.source).toBe("cron");
			expect(cron.cronJobId).toBe("nightly-report");
			const stored = await store.metadata(cron.id);
			expect(stored.source).toBe("cron");
			expect(stored.cronJobId).toBe("nightly-report");
			expect((await store.list({ source: "cron" })).sessions.map((s) => s.id)).toEqual([cron.id]);
		});

		it("keeps the options it was given: name, model, system prompt, identity, creation time, import origin", async () => {
			const { store } = context;
			const created = await store.create({
				name: "Deploy review",
				model: "anthropic/claude-sonnet-4-5",
				systemPromptOverride: "Answer in French.",
				identityKey: "telegram:12345/user:67890",
				createdAt: "2024-05-01T08:00:00.000Z",
				importedFrom: { format: "pi", sourceId: "abc" },
			});
			const stored = await store.metadata(created.id);
			expect(stored.name).toBe("Deploy review");
			expect(stored.model).toBe("anthropic/claude-sonnet-4-5");
			expect(stored.systemPromptOverride).toBe("Answer in French.");
			expect(stored.identityKey).toBe("telegram:12345/user:67890");
			expect(stored.createdAt).toBe("2024-05-01T08:00:00.000Z");
			expect(stored.lastMessageAt).toBe("2024-05-01T08:00:00.000Z");
			expect(stored.importedFrom).toEqual({ format: "pi", sourceId: "abc" });
		});

		it("rejects options it cannot honour with INVALID_ARGUMENT and creates nothing", async () => {
			const { store } = context;
			await expectCode(store.create({ source: "robot" as never }), "INVALID_ARGUMENT");
			await expectCode(store.create({ createdAt: "yesterday" }), "INVALID_ARGUMENT");
			expect((await store.list({ archived: true })).sessions).toEqual([]);
		});
	});
}
