import {
	buildContextFromPath,
	type CompactionRecord,
	type CompactionSettings,
	DEFAULT_COMPACTION_SETTINGS,
	estimateTextTokens,
} from "@agent/session-format";
import { fauxAssistantMessage } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { compact } from "./compact.js";
import { prepareCompaction } from "./prepare.js";
import { SUMMARIZATION_PROMPT, SUMMARIZATION_SYSTEM_PROMPT, UPDATE_SUMMARIZATION_PROMPT } from "./prompts.js";
import { PathBuilder, usage, useFauxSummarizers, validSummary, words } from "./test-fixtures.js";
import { estimateContextTokens, shouldCompact } from "./tokens.js";

const summarizer = useFauxSummarizers();

const settings: CompactionSettings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 150 };

async function compactPath(b: PathBuilder, model: ReturnType<typeof summarizer>["model"]) {
	const plan = prepareCompaction(b.records, settings);
	if (!plan) throw new Error("expected a plan");
	const record = await compact(plan, { model, trigger: "threshold" });
	return { plan, record, appended: b.append(record) as CompactionRecord };
}

describe("a second compaction", () => {
	it("S7.15/S7.16/S7.17: keeps the first one's files and folds into its summary with the update prompt", async () => {
		const b = new PathBuilder();
		b.user(`first-turn ${words(100)}`);
		b.toolTurn("read", { path: "src/a.ts" }, words(50));
		b.toolTurn("read", { path: "src/shared.ts" }, words(50));
		const keptByFirst = b.user(`kept-by-first ${words(100)}`);
		b.assistant(words(100));
		const { model, prompts } = summarizer((_, i) => validSummary(i === 0 ? "first" : "second"));
		const first = await compactPath(b, model);
		expect(first.record.firstKeptSeq).toBe(keptByFirst.seq);
		expect(first.record.readFiles).toEqual(["src/a.ts", "src/shared.ts"]);

		b.toolTurn("edit", { path: "src/shared.ts" }, "ok");
		b.toolTurn("write", { path: "src/new.ts" }, "ok");
		const last = b.user(words(100));
		b.assistant(words(100));
		const second = await compactPath(b, model);

		expect(second.record.firstKeptSeq).toBe(last.seq);
		expect(second.record.readFiles).toEqual(["src/a.ts"]);
		expect(second.record.modifiedFiles).toEqual(["src/new.ts", "src/shared.ts"]);
		const prompt = prompts[1]?.user ?? "";
		expect(prompt.endsWith(UPDATE_SUMMARIZATION_PROMPT)).toBe(true);
		expect(prompt).toContain(`<previous-summary>\n${validSummary("first")}\n</previous-summary>`);
		// The messages the first compaction kept are summarized now, exactly once; those it summarized are not.
		expect(prompt).toContain("[User]: kept-by-first");
		expect(prompt).not.toContain("first-turn");
		expect(second.record.summary).toBe(
			`${validSummary("second")}\n\n<read-files>\nsrc/a.ts\n</read-files>\n\n<modified-files>\nsrc/new.ts\nsrc/shared.ts\n</modified-files>`,
		);
		const context = buildContextFromPath(b.records);
		expect(context.messages.map((m) => m.seq)).toEqual([second.appended.seq, last.seq, last.seq + 1]);
	});
});

describe("stale usage", () => {
	it("usage reported before a compaction never triggers the next one (no compaction loop)", async () => {
		const contextWindow = 200_000;
		const b = new PathBuilder();
		b.user(words(100));
		b.assistant(words(100), { usage: usage(120_000), stopReason: "stop" });
		b.user(words(100));
		b.assistant(words(100), { usage: usage(190_000), stopReason: "stop" });
		expect(shouldCompact(estimateContextTokens(b.records), contextWindow, DEFAULT_COMPACTION_SETTINGS)).toBe(true);

		const { model } = summarizer();
		const plan = prepareCompaction(b.records, { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 150 });
		if (!plan) throw new Error("expected a plan");
		expect(plan.contextTokens).toBe(190_000);
		// The kept assistant message carries the 190k usage; after compaction it must not count.
		const record = await compact(plan, { model, trigger: "threshold" });
		b.append(record);
		const after = estimateContextTokens(b.records);
		expect(after).toBe(record.tokensAfter);
		expect(shouldCompact(after, contextWindow, DEFAULT_COMPACTION_SETTINGS)).toBe(false);
		const resumed = b.records.slice(b.records.findIndex((r) => r.seq === record.firstKeptSeq));
		expect(estimateContextTokens(resumed)).toBe(after);
	});
});

describe("chunked summarization", () => {
	it("summarizes material three times the summarizer's window in chunks: initial prompt first, then update prompts", async () => {
		const window = 4000;
		const b = new PathBuilder();
		for (let i = 0; i < 60; i++) {
			b.user(`message-${i} ${words(100)}`);
			b.assistant(`answer-${i} ${words(100)}`);
		}
		const plan = prepareCompaction(b.records, { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 200 });
		if (!plan) throw new Error("expected a plan");
		expect(plan.tokensBefore).toBeGreaterThan(3 * window);
		const { model, prompts } = summarizer((_, i) => validSummary(`chunk${i}`), { contextWindow: window });
		const record = await compact(plan, { model });

		expect(prompts.length).toBeGreaterThanOrEqual(4);
		expect(prompts[0]?.user.endsWith(SUMMARIZATION_PROMPT)).toBe(true);
		expect(prompts[0]?.user).not.toContain("<previous-summary>");
		prompts.slice(1).forEach((prompt, i) => {
			expect(prompt.user.endsWith(UPDATE_SUMMARIZATION_PROMPT)).toBe(true);
			expect(prompt.user).toContain(`<previous-summary>\n${validSummary(`chunk${i}`)}\n</previous-summary>`);
		});
		const maxTokens = window / 4;
		for (const prompt of prompts) {
			expect(
				estimateTextTokens(SUMMARIZATION_SYSTEM_PROMPT) + estimateTextTokens(prompt.user) + maxTokens,
			).toBeLessThanOrEqual(window);
		}
		// Every summarized message went to the summarizer exactly once, in order.
		const all = prompts.map((p) => p.user).join("\n");
		const summarizedMessages = plan.parts[0]?.messageCount ?? 0;
		for (let i = 0; i < summarizedMessages / 2; i++) {
			expect(all.split(`[User]: message-${i} `).length).toBe(2);
			expect(all.split(`[Assistant]: answer-${i} `).length).toBe(2);
		}
		expect(record.summary).toBe(validSummary(`chunk${prompts.length - 1}`));
	});

	it("splits a single message bigger than a chunk", async () => {
		const b = new PathBuilder();
		b.user(`huge ${words(6000)}`);
		const last = b.user(words(100));
		const plan = prepareCompaction(b.records, { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 50 });
		expect(plan?.firstKeptSeq).toBe(last.seq);
		if (!plan) return;
		const { model, prompts } = summarizer(undefined, { contextWindow: 4000 });
		await compact(plan, { model });
		expect(prompts.length).toBeGreaterThanOrEqual(3);
		const sent = prompts.map((p) => p.user.match(/<conversation>\n([\s\S]*?)\n<\/conversation>/)?.[1] ?? "").join("");
		expect(sent).toBe(`[User]: huge ${words(6000)}`);
	});

	it("halves the chunk when the provider still reports an overflow", async () => {
		const b = new PathBuilder();
		for (let i = 0; i < 20; i++) b.user(`m${i} ${words(100)}`);
		const plan = prepareCompaction(b.records, { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 100 });
		if (!plan) throw new Error("expected a plan");
		const { model, prompts } = summarizer(
			(_, i) =>
				i === 0
					? fauxAssistantMessage([], {
							stopReason: "error",
							errorMessage: "prompt is too long: 5000 tokens > 4000 maximum",
						})
					: validSummary(),
			{ contextWindow: 4000 },
		);
		await compact(plan, { model });
		expect(prompts.length).toBeGreaterThan(2);
		expect((prompts[1]?.user.length ?? 0) < (prompts[0]?.user.length ?? 0)).toBe(true);
	});

	it("fails clearly when the summarizer's window leaves no room for material", async () => {
		const b = new PathBuilder();
		for (let i = 0; i < 4; i++) b.user(words(100));
		const plan = prepareCompaction(b.records, { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 100 });
		if (!plan) throw new Error("expected a plan");
		const { model } = summarizer();
		await expect(compact(plan, { model, summarizerContextWindow: 500 })).rejects.toMatchObject({
			code: "COMPACTION_FAILED",
			message: expect.stringMatching(/^@agent\/compaction: .*larger window/),
		});
	});
});
