import {
	type CompactionSettings,
	DEFAULT_COMPACTION_SETTINGS,
	pathSettingsOf,
	type StoredRecord,
	validateRecordInput,
} from "@agent/session-format";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compact } from "./compact.js";
import { findCutPoint } from "./cut-point.js";
import { extractFileOperations, mergeFileOperations, stripFileOperations } from "./file-operations.js";
import { renderPartPrompt } from "./part-material.js";
import type { PathSource } from "./path-source.js";
import { type CompactionPlan, effectiveKeepRecentTokens, prepareCompaction, prepareCompactionFrom } from "./prepare.js";
import { branchSummaryFilesOf, contextMessagesOf, findCompactionRegion } from "./region.js";
import { serializeConversation } from "./serialize.js";
import { renderSummaryPrompt } from "./summary-prompts.js";
import { applySteps, type Step, stepArb, stepsArb } from "./test-arbitraries.js";
import { fauxSummarizer, PathBuilder, validSummary, words } from "./test-fixtures.js";
import { estimateContextTokens, estimateMessageTokens } from "./tokens.js";

/** More runs locally: PROPERTY_RUNS=3000 pnpm exec vitest run src/streamed-plan.property.test.ts */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 60);

/**
 * The plan as the in-memory functions make it (region, cut point, context messages, file
 * operations, serialized conversation): the reference the one-pass, streamed planner must match.
 */
function referencePlan(path: readonly StoredRecord[], settings: CompactionSettings, systemPrompt: string) {
	const region = findCompactionRegion(path);
	const cut = findCutPoint(path, effectiveKeepRecentTokens(settings, 200_000), region);
	if (!cut) return undefined;
	const summarizeEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.index;
	const history = contextMessagesOf(path, region.start, summarizeEnd);
	const turnPrefix = cut.isSplitTurn ? contextMessagesOf(path, cut.turnStartIndex, cut.index) : [];
	if (history.length === 0 && turnPrefix.length === 0) return undefined;
	const files = mergeFileOperations(
		region.previous,
		...branchSummaryFilesOf(path, region.start, cut.index),
		extractFileOperations([...history, ...turnPrefix]),
	);
	return {
		firstKeptSeq: cut.seq,
		isSplitTurn: cut.isSplitTurn,
		tokensKept: cut.keptTokens,
		tokensBefore: [...history, ...turnPrefix].reduce((sum, m) => sum + estimateMessageTokens(m), 0),
		contextTokens: estimateContextTokens(path, { systemPrompt }),
		readFiles: files.readFiles,
		modifiedFiles: files.modifiedFiles,
		previousSummary: region.previous ? stripFileOperations(region.previous.summary) : undefined,
		pathSettings: pathSettingsOf(path),
		texts: [history, turnPrefix].filter((part) => part.length > 0).map((part) => serializeConversation(part)),
	};
}

/** A store-like source: records handed out one at a time, asynchronously. */
function asyncSource(path: readonly StoredRecord[]): PathSource {
	return async function* (fromSeq: number) {
		for (const record of path) {
			if (record.seq < fromSeq) continue;
			await Promise.resolve();
			yield record;
		}
	};
}

const extraArb = fc.array(fc.constantFrom("branch" as const, "failedEdit" as const, "read" as const), { maxLength: 3 });
const roundArb = fc.tuple(stepsArb, extraArb, fc.integer({ min: 0, max: 3000 }), fc.boolean());

const CONVERSATION = /^<conversation>\n([\s\S]*?)\n<\/conversation>/;

/** What the reference plan (referencePlan) computes too: every figure of a plan but its parts. */
function planFacts(plan: CompactionPlan) {
	return {
		firstKeptSeq: plan.firstKeptSeq,
		isSplitTurn: plan.isSplitTurn,
		tokensKept: plan.tokensKept,
		tokensBefore: plan.tokensBefore,
		contextTokens: plan.contextTokens,
		readFiles: plan.readFiles,
		modifiedFiles: plan.modifiedFiles,
		previousSummary: plan.previousSummary,
		pathSettings: plan.pathSettings,
	};
}

describe("the streamed, one-pass plan is the in-memory plan (random sessions, repeated compactions)", () => {
	it("same cut point, files, token figures and serialized text, in memory, streamed and sent in chunks", async () => {
		const settingsFor = (keepRecentTokens: number) => ({ ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens });
		await fc.assert(
			fc.asyncProperty(fc.array(roundArb, { minLength: 1, maxLength: 4 }), async (rounds) => {
				const b = new PathBuilder();
				for (const [steps, extras, keepRecentTokens, appendCompaction] of rounds) {
					applySteps(b, steps);
					for (const extra of extras) {
						if (extra === "branch") {
							b.append({
								recordType: "branch_summary",
								fromSeq: Math.max(1, b.lastSeq),
								summary: words(30),
								readFiles: ["branch-read.ts"],
								modifiedFiles: ["branch-edit.ts"],
							});
						} else if (extra === "failedEdit") b.toolTurn("edit", { path: "failed.ts" }, "no such file", true);
						else b.toolTurn("read", { path: "read.ts" }, words(20));
					}
					const settings = settingsFor(keepRecentTokens);
					const expected = referencePlan(b.records, settings, "Be brief.");
					const options = { contextWindow: 200_000, systemPrompt: "Be brief." };
					const plan = prepareCompaction(b.records, settings, options);
					const streamed = await prepareCompactionFrom(asyncSource(b.records), settings, options);
					expect(streamed).toEqual(plan);
					if (!expected) {
						expect(plan).toBeUndefined();
						continue;
					}
					if (!plan) throw new Error("expected a plan");
					expect(planFacts(plan)).toEqual({ ...expected, texts: undefined });
					expect(plan.parts).toHaveLength(expected.texts.length);
					for (const [i, part] of plan.parts.entries()) {
						const text = expected.texts[i] as string;
						const prompt = renderSummaryPrompt(part.kind, text, part.previousSummary);
						expect(await renderPartPrompt(plan, part)).toBe(prompt);
						expect(await renderPartPrompt(plan, part, { source: asyncSource(b.records) })).toBe(prompt);
					}

					// Sent in chunks through a small summarizer window: every chunk's conversation, in
					// order, is the serialized text, split only between messages.
					const { faux, prompts } = fauxSummarizer(() => validSummary(), { contextWindow: 8000 });
					try {
						const record = await compact(streamed ?? plan, { model: faux.getModel() });
						const sent = prompts.map((p) => CONVERSATION.exec(p.user)?.[1] ?? "<missing>");
						// A part with nothing to serialize (e.g. only custom records) sends no chunk.
						const nonEmpty = (texts: readonly string[]) => texts.filter((text) => text.length > 0).join("\n");
						expect(nonEmpty(sent)).toBe(nonEmpty(expected.texts));
						if (appendCompaction) {
							validateRecordInput(record, { seq: b.lastSeq + 1, timestamp: "2025-02-11T10:00:00.000Z" });
							b.append(record);
						}
					} finally {
						faux.unregister();
					}
				}
			}),
			{
				numRuns: RUNS,
				examples: [
					// Found by this property (seed -2135497035): a first part with nothing to serialize.
					[
						[
							[
								[
									{ kind: "custom", tokens: 0 },
									{ kind: "user", tokens: 0 },
								],
								[],
								0,
								false,
							],
							[
								[
									{
										kind: "assistant",
										tokens: 0,
										calls: [],
										reversed: false,
										steerBetween: false,
										dropLast: false,
										reportedUsage: 0,
									},
								],
								[],
								0,
								false,
							],
						],
					],
				],
			},
		);
	});

	it("the same across the planner's column chunks: a session of over 12,000 records, compacted in the middle", async () => {
		// Small messages, many records: the facts span several chunks of 4096 records, and the
		// compaction in the middle drops whole chunks and part of one.
		const small = (step: Step): Step =>
			step.kind === "assistant"
				? { ...step, tokens: step.tokens % 20, calls: step.calls.map((size) => size % 20) }
				: "tokens" in step
					? { ...step, tokens: step.tokens % 20 }
					: step;
		const steps = fc.sample(stepArb, { numRuns: 7500, seed: 21 }).map(small);
		const b = new PathBuilder();
		const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 30_000 };
		const options = { contextWindow: 200_000, systemPrompt: "Be brief." };
		applySteps(b, steps.slice(0, 4000));
		const { faux } = fauxSummarizer(() => validSummary(), { contextWindow: 200_000 });
		try {
			const first = prepareCompaction(b.records, settings, options);
			if (!first) throw new Error("expected a plan");
			b.append(await compact(first, { model: faux.getModel() }));
		} finally {
			faux.unregister();
		}
		applySteps(b, steps.slice(4000));
		expect(b.records.length).toBeGreaterThan(12_000);
		const expected = referencePlan(b.records, settings, "Be brief.");
		const plan = prepareCompaction(b.records, settings, options);
		if (!expected || !plan) throw new Error("expected a plan");
		expect(await prepareCompactionFrom(asyncSource(b.records), settings, options)).toEqual(plan);
		expect(planFacts(plan)).toEqual({ ...expected, texts: undefined });
	});
});
