import { buildContextFromPath, DEFAULT_COMPACTION_SETTINGS, type StoredRecord } from "@agent/session-format";
import { fauxAssistantMessage } from "@mariozechner/pi-ai";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { compact } from "./compact.js";
import { prepareCompaction } from "./prepare.js";
import { applySteps, stepsArb } from "./test-arbitraries.js";
import { fauxSummarizer, PathBuilder, partMessages, validSummary } from "./test-fixtures.js";

const { faux } = fauxSummarizer(() => validSummary());
const model = faux.getModel();
afterAll(() => faux.unregister());
let compactions = 0;

/** The seqs of the records the LLM sees as conversation (messages and custom messages). */
function conversationSeqs(records: readonly StoredRecord[]): number[] {
	return records.filter((r) => r.recordType === "message" || r.recordType === "custom_message").map((r) => r.seq);
}

describe("compaction properties (random sessions, repeated compactions)", () => {
	it("every message is summarized exactly once or still in the context, never both, and no tool result loses its call", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.tuple(stepsArb, fc.integer({ min: 0, max: 2000 })), { minLength: 1, maxLength: 4 }),
				async (rounds) => {
					faux.setResponses(Array.from({ length: 20 }, () => fauxAssistantMessage(validSummary())));
					const b = new PathBuilder();
					const summarized: number[] = [];
					for (const [steps, keepRecentTokens] of rounds) {
						applySteps(b, steps);
						const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens };
						const plan = prepareCompaction(b.records, settings);
						if (!plan) continue;

						// A resume reads only the suffix from the latest firstKeptSeq: same plan.
						const latest = [...b.records].reverse().find((r) => r.recordType === "compaction");
						if (latest?.recordType === "compaction") {
							const from = b.records.findIndex((r) => r.seq === latest.firstKeptSeq);
							const fromSuffix = prepareCompaction(b.records.slice(from), settings);
							expect(fromSuffix?.parts).toEqual(plan.parts);
							expect(fromSuffix?.firstKeptSeq).toBe(plan.firstKeptSeq);
						}

						for (const part of plan.parts)
							for (const message of partMessages(b.records, part)) summarized.push(message.seq ?? -1);
						b.append(await compact(plan, { model }));
						compactions++;
						const context = buildContextFromPath(b.records);
						expect(context.droppedToolResults).toBe(0);
						const calls = new Set<string>();
						for (const message of context.messages) {
							if (message.role === "toolResult") expect(calls.has(message.toolCallId ?? "")).toBe(true);
							for (const block of message.content) if (block.type === "toolCall") calls.add(block.id);
						}
					}
					const inContext = buildContextFromPath(b.records)
						.messages.filter((m) => m.origin === "message" || m.origin === "custom_message")
						.map((m) => m.seq);
					expect(new Set(summarized).size).toBe(summarized.length);
					expect(summarized.filter((seq) => inContext.includes(seq))).toEqual([]);
					expect([...summarized, ...inContext].sort((x, y) => (x ?? 0) - (y ?? 0))).toEqual(
						conversationSeqs(b.records),
					);
				},
			),
			{ numRuns: 100 },
		);
		// The generator must actually exercise repeated compaction.
		expect(compactions).toBeGreaterThan(100);
	});
});
