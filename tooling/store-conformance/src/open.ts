import { describe, expect, it } from "vitest";
import { assistant, compaction, expectCode, type SuiteContext, textOf, toolResult, user } from "./fixtures.js";

export function describeOpen(context: SuiteContext): void {
	describe("open (resume)", () => {
		it("S7.3: rebuilds the conversation from the log, messages in order", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [user("What pods are running?"), assistant("Let me check.", { toolCallId: "tc_1" })]);
			await store.append(id, [toolResult("tc_1", "nginx Running"), assistant("One pod: nginx.")]);
			const { context: built, path, metadata } = await store.open(id);
			expect(built.messages.map((m) => [m.role, m.seq])).toEqual([
				["user", 1],
				["assistant", 2],
				["toolResult", 3],
				["assistant", 4],
			]);
			expect(built.messages[2]?.toolCallId).toBe("tc_1");
			expect(path.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
			expect(built.leafSeq).toBe(4);
			expect(built.model).toEqual({ provider: "faux", modelId: "faux-1" });
			expect(metadata.lastSeq).toBe(4);
		});

		it("S7.11: a compaction replaces what came before firstKeptSeq with its summary", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [user("one"), assistant("two"), user("three"), assistant("four")]);
			await store.append(id, [compaction(3, "SUMMARY-1"), user("five"), assistant("six")]);
			const { context: built, path } = await store.open(id);
			expect(built.messages.map(textOf)).toEqual([
				"The conversation history before this point was compacted into the following summary:\n<summary>\nSUMMARY-1\n</summary>",
				"three",
				"four",
				"five",
				"six",
			]);
			expect(built.compaction?.seq).toBe(5);
			expect(path.map((r) => r.seq)).toEqual([3, 4, 5, 6, 7]);
		});

		it("the latest compaction wins over earlier ones", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [user("1"), assistant("2"), compaction(2, "S1"), user("4"), assistant("5")]);
			await store.append(id, [compaction(4, "S2"), user("7")]);
			const { context: built, path } = await store.open(id);
			expect(built.compaction?.summary).toBe("S2");
			expect(built.messages.map(textOf).slice(1)).toEqual(["4", "5", "7"]);
			expect(path[0]?.seq).toBe(4);
		});

		it("opens at an earlier leaf when asked, and rejects a leaf past the end", async () => {
			const { store } = context;
			const { id } = await store.create();
			await store.append(id, [user("a"), assistant("b"), user("c"), assistant("d")]);
			const { context: built } = await store.open(id, { leafSeq: 2 });
			expect(built.messages.map(textOf)).toEqual(["a", "b"]);
			expect(built.leafSeq).toBe(2);
			await expectCode(store.open(id, { leafSeq: 9 }), "INVALID_ARGUMENT");
		});

		it("uses the session's systemPromptOverride unless a system prompt is given, and never stores ephemeral messages", async () => {
			const { store } = context;
			const { id } = await store.create({ systemPromptOverride: "Be brief." });
			await store.append(id, [user("hi")]);
			expect((await store.open(id)).context.systemPrompt).toBe("Be brief.");
			expect((await store.open(id, { systemPrompt: "Be verbose." })).context.systemPrompt).toBe("Be verbose.");
			const withEphemeral = await store.open(id, { ephemeral: [{ content: "It is Monday." }] });
			expect(withEphemeral.context.messages.map(textOf)).toEqual(["It is Monday.", "hi"]);
			expect((await store.open(id)).context.messages.map(textOf)).toEqual(["hi"]);
			expect((await store.metadata(id)).lastSeq).toBe(1);
		});
	});
}
