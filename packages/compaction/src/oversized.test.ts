import { DEFAULT_COMPACTION_SETTINGS } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { compactionReduces, estimateChunks } from "./chunk-estimate.js";
import { compact } from "./compact.js";
import {
	cappedRecordTokens,
	oversizedBlockTokens,
	truncateMessage,
	truncateOversizedBlocks,
	truncateOversizedText,
} from "./oversized.js";
import { renderPartPrompt } from "./part-material.js";
import { prepareCompaction } from "./prepare.js";
import { PathBuilder, useFauxSummarizers, validSummary, words } from "./test-fixtures.js";
import { estimateRecordTokens } from "./tokens.js";

const summarizer = useFauxSummarizers();

describe("oversized blocks", () => {
	it("a quarter of the window left after the reserve; unknown windows cut nothing", () => {
		expect(oversizedBlockTokens(32_768, 16_384)).toBe(4096);
		expect(oversizedBlockTokens(1000, 16_384)).toBe(256);
		expect(oversizedBlockTokens(undefined, 16_384)).toBe(Number.POSITIVE_INFINITY);
		expect(oversizedBlockTokens(Number.POSITIVE_INFINITY, 0)).toBe(Number.POSITIVE_INFINITY);
	});

	it("keeps head and tail with a marker saying how much was left out and where the whole text is", () => {
		const text = `HEAD${"m".repeat(3_500_000)}TAIL`;
		const cut = truncateOversizedText(text, 1000, 7);
		expect(cut.length).toBeLessThanOrEqual(4000 + 200);
		expect(cut.startsWith("HEAD")).toBe(true);
		expect(cut.endsWith("TAIL")).toBe(true);
		const omitted = text.length - (cut.length - (cut.match(/\n\[….*…\]\n/)?.[0].length ?? 0));
		expect(cut).toContain(
			`[… ${omitted.toLocaleString("en-US")} characters omitted; the full text is in the session log at seq 7 …]`,
		);
		expect(truncateOversizedText("short", 1000, 7)).toBe("short");
	});

	it("cuts text and thinking blocks over the limit, leaves the rest (same objects) and counts what it took", () => {
		const big = "b".repeat(40_000);
		const small = { role: "user" as const, content: [{ type: "text" as const, text: "hi" }], seq: 1 };
		const huge = {
			role: "assistant" as const,
			seq: 2,
			content: [
				{ type: "thinking" as const, thinking: big },
				{ type: "text" as const, text: big },
				{ type: "toolCall" as const, id: "c", name: "read", arguments: { path: big } },
			],
		};
		const result = truncateOversizedBlocks([small, huge], 1000);
		expect(result.messages[0]).toBe(small);
		expect(result.seqs).toEqual([2]);
		const [thinking, text, call] = result.messages[1]?.content ?? [];
		expect(thinking?.type === "thinking" && thinking.thinking.length).toBeLessThan(4100);
		expect(text?.type === "text" && text.text).toContain("seq 2");
		expect(call).toBe(huge.content[2]);
		expect(result.tokens).toBeGreaterThan(2 * (10_000 - 1100));
		expect(huge.content[1]).toEqual({ type: "text", text: big });
		expect(truncateMessage(huge, Number.POSITIVE_INFINITY)).toBe(huge);
	});
});

describe("oversized material in compaction", () => {
	function hugeSession() {
		const b = new PathBuilder();
		b.user(`START${"z".repeat(400_000)}END`);
		b.assistant(words(50));
		b.user(words(100));
		b.assistant(words(100));
		return b;
	}

	it("the summarizer gets the head and tail of an oversized message, never the whole of it", async () => {
		const b = hugeSession();
		const settings = { ...DEFAULT_COMPACTION_SETTINGS, reserveTokens: 1000, keepRecentTokens: 150 };
		const plan = prepareCompaction(b.records, settings, { contextWindow: 9000 });
		if (!plan) throw new Error("expected a plan");
		expect(plan.serialize.maxBlockTokens).toBe(2000);
		const prompt = await renderPartPrompt(plan, plan.parts[0] as (typeof plan.parts)[number]);
		expect(prompt).toContain("START");
		expect(prompt).toContain("END");
		expect(prompt).toContain("characters omitted; the full text is in the session log at seq 1");
		expect(prompt.length).toBeLessThan(20_000);
		const { model, prompts } = summarizer(() => validSummary("one"));
		await compact(plan, { model });
		expect(prompts.every((p) => p.user.length < 40_000)).toBe(true);
	});

	it("estimates the chunks a plan takes: one when it fits, more when the window is small", async () => {
		const b = hugeSession();
		const settings = { ...DEFAULT_COMPACTION_SETTINGS, reserveTokens: 1000, keepRecentTokens: 150 };
		const plan = prepareCompaction(b.records, settings, { contextWindow: 9000 });
		if (!plan) throw new Error("expected a plan");
		const model = { contextWindow: 200_000, maxTokens: 4096 };
		const wide = await estimateChunks(plan, { model });
		expect(wide).toMatchObject({ chunks: 1, fitsInOneCall: true });
		const narrow = await estimateChunks(plan, { model, summarizerContextWindow: 2500, maxTokens: 300 });
		expect(narrow.fitsInOneCall).toBe(false);
		expect(narrow.chunks).toBeGreaterThan(1);
		// The estimate matches what compact() does with the same window.
		const { model: faux, prompts } = summarizer(() => validSummary("one"));
		await compact(plan, { model: faux, summarizerContextWindow: 2500, maxTokens: 300 });
		expect(Math.abs(prompts.length - narrow.chunks)).toBeLessThanOrEqual(1);
	});

	it("plans measure records as they are sent: an oversized message counts its cut size", () => {
		const b = new PathBuilder();
		b.user(words(100));
		b.assistant(words(100));
		const huge = b.user(`START${"z".repeat(400_000)}END`);
		b.assistant(words(50));
		const settings = { ...DEFAULT_COMPACTION_SETTINGS, reserveTokens: 1000, keepRecentTokens: 150 };
		expect(cappedRecordTokens(huge, 2000)).toBeLessThan(2100);
		expect(cappedRecordTokens(huge, Number.POSITIVE_INFINITY)).toBeGreaterThan(100_000);
		const plan = prepareCompaction(b.records, settings, { contextWindow: 9000 });
		if (!plan) throw new Error("expected a plan");
		expect(plan.contextTokens).toBeLessThan(3000);
		const whole = prepareCompaction(b.records, settings);
		expect(whole?.contextTokens).toBeGreaterThan(100_000);
	});

	it("a block counts as cut exactly when its estimate is over the limit; tool calls and images count whole", () => {
		const b = new PathBuilder();
		const call = b.call("write", { path: "a.ts", content: "x\n".repeat(3000) });
		const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
		// 4000 characters are 1000 tokens, not over a 1000-token limit; 4001 are 1001 and are cut.
		const at = b.assistant([{ type: "text", text: "a".repeat(4000) }, call, image]);
		const over = b.assistant([{ type: "thinking", thinking: "b".repeat(4001) }, call, image]);
		const whole = Math.ceil((4000 + "write".length + JSON.stringify(call.arguments).length + 4800) / 4);
		expect(cappedRecordTokens(at, 1000)).toBe(whole);
		expect(cappedRecordTokens(at, 1000)).toBe(estimateRecordTokens(at));
		const rest = Math.ceil(("write".length + JSON.stringify(call.arguments).length + 4800) / 4);
		expect(cappedRecordTokens(over, 1000)).toBe(1000 + 40 + rest);
		// A limit that is not a whole number cuts what its whole part cuts; one that is not finite cuts nothing.
		expect(cappedRecordTokens(over, 1000.5)).toBe(1000.5 + 40 + rest);
		expect(cappedRecordTokens(at, 999.9)).toBe(999.9 + 40 + rest);
		expect(cappedRecordTokens(over, Number.NaN)).toBe(estimateRecordTokens(over));
		expect(cappedRecordTokens(over, Number.NEGATIVE_INFINITY)).toBe(estimateRecordTokens(over));
	});

	it("compactionReduces says when what is kept and the summary are not less than the context now", () => {
		expect(compactionReduces({ contextTokens: 20_000, tokensKept: 8000 }, 4096).reduces).toBe(true);
		const no = compactionReduces({ contextTokens: 900_000, tokensKept: 875_000 }, 30_000);
		expect(no.reduces).toBe(false);
		expect(no.reason).toMatch(/cannot reduce/);
	});
});
