import { buildContextFromPath, compactionSettingsFromConfig, DEFAULT_COMPACTION_SETTINGS } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { PathBuilder, usage, words } from "./test-fixtures.js";
import { estimateContextTokens, estimateContextUsage, estimateRecordTokens, shouldCompact } from "./tokens.js";

describe("estimateContextTokens", () => {
	it("falls back to chars/4 estimates when no assistant reported usage", () => {
		const b = new PathBuilder();
		b.user(words(10));
		b.assistant(words(5));
		expect(estimateContextUsage(b.records)).toEqual({
			tokens: 15,
			source: "estimate",
			usageTokens: 0,
			trailingTokens: 15,
		});
		expect(estimateContextTokens(b.records, { systemPrompt: words(3) })).toBe(18);
	});

	it("uses the last reported usage plus estimates of the messages after it", () => {
		const b = new PathBuilder();
		b.user(words(10));
		b.assistant(words(5), { usage: usage(1000), stopReason: "stop" });
		b.user(words(7));
		const estimate = estimateContextUsage(b.records);
		expect(estimate).toMatchObject({
			tokens: 1007,
			source: "usage",
			usageTokens: 1000,
			trailingTokens: 7,
			usageSeq: 2,
		});
	});

	it("skips the usage of failed or aborted answers", () => {
		const b = new PathBuilder();
		b.user(words(10));
		b.assistant(words(5), { usage: usage(500), stopReason: "stop" });
		b.assistant([], { usage: usage(0), stopReason: "error", errorMessage: "boom" });
		b.assistant(words(1), { usage: usage(99_999), stopReason: "aborted" });
		expect(estimateContextUsage(b.records)).toMatchObject({ usageTokens: 500, usageSeq: 2, trailingTokens: 1 });
	});

	it("never uses usage reported before the latest compaction (the stale-usage loop)", () => {
		const b = new PathBuilder();
		b.user(words(100));
		b.assistant(words(100), { usage: usage(150_000), stopReason: "stop" });
		const kept = b.user(words(50));
		b.assistant(words(50), { usage: usage(190_000), stopReason: "stop" });
		b.compaction({ firstKeptSeq: kept.seq, summary: "S", tokensBefore: 190_000, readFiles: [], modifiedFiles: [] });
		const estimate = estimateContextUsage(b.records);
		expect(estimate.source).toBe("estimate");
		expect(estimate.tokens).toBe(buildContextFromPath(b.records).estimatedTokens);
		expect(estimate.tokens).toBeLessThan(1000);
		// The same from the suffix a resume reads, and from built context messages.
		const suffix = b.records.slice(b.records.indexOf(kept));
		expect(estimateContextTokens(suffix)).toBe(estimate.tokens);
		expect(estimateContextTokens(buildContextFromPath(b.records).messages)).toBe(estimate.tokens);
		// A model with a 200k window: the kept message's stale 190k must not trigger compaction again.
		expect(shouldCompact(estimate.tokens, 200_000, DEFAULT_COMPACTION_SETTINGS)).toBe(false);
	});

	it("uses usage reported after the latest compaction", () => {
		const b = new PathBuilder();
		const kept = b.user(words(50));
		b.assistant(words(50), { usage: usage(190_000), stopReason: "stop" });
		b.compaction({ firstKeptSeq: kept.seq, summary: "S", tokensBefore: 190_000, readFiles: [], modifiedFiles: [] });
		b.user(words(10));
		b.assistant(words(10), { usage: usage(30_000), stopReason: "stop" });
		b.user(words(4));
		expect(estimateContextUsage(b.records)).toMatchObject({ tokens: 30_004, source: "usage", usageSeq: 5 });
	});

	it("counts custom messages and branch summaries, and nothing for other records", () => {
		const b = new PathBuilder();
		const custom = b.append({
			recordType: "custom_message",
			customType: "note",
			content: [{ type: "text", text: words(3) }],
			display: true,
		});
		const label = b.append({ recordType: "label", targetSeq: 1, label: "x" });
		expect(estimateRecordTokens(custom)).toBe(3);
		expect(estimateRecordTokens(label)).toBe(0);
		expect(estimateContextTokens([])).toBe(0);
	});
});

describe("shouldCompact (spec §7.5.2)", () => {
	const settings = compactionSettingsFromConfig({ reserve_tokens: 1000 });

	it("triggers only when contextTokens > contextWindow - reserveTokens", () => {
		expect(shouldCompact(9000, 10_000, settings)).toBe(false);
		expect(shouldCompact(9001, 10_000, settings)).toBe(true);
	});

	it("never triggers when compaction is disabled in config.yaml", () => {
		expect(shouldCompact(1_000_000, 10_000, compactionSettingsFromConfig({ enabled: false }))).toBe(false);
	});

	it("uses the spec defaults when config.yaml has no compaction section", () => {
		const defaults = compactionSettingsFromConfig(undefined);
		expect(shouldCompact(200_000 - 16_384, 200_000, defaults)).toBe(false);
		expect(shouldCompact(200_000 - 16_383, 200_000, defaults)).toBe(true);
	});
});
