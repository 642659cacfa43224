import { type CompactionSettings, DEFAULT_COMPACTION_SETTINGS, type StoredRecord } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { appendFileOperations } from "./file-operations.js";
import { renderPartPrompt } from "./part-material.js";
import { type CompactionPlan, effectiveKeepRecentTokens, prepareCompaction, type SummaryPart } from "./prepare.js";
import { SUMMARIZATION_SYSTEM_PROMPT } from "./prompts.js";
import { serializeConversation } from "./serialize.js";
import { renderSummaryPrompt } from "./summary-prompts.js";
import { PathBuilder, partMessages, validSummary, words } from "./test-fixtures.js";

const settings = (keepRecentTokens: number): CompactionSettings => ({
	...DEFAULT_COMPACTION_SETTINGS,
	keepRecentTokens,
});

const seqs = (messages: ReadonlyArray<{ seq?: number }>) => messages.map((m) => m.seq);

/** Two turns of 200 tokens each, then a third of 200. */
function threeTurns() {
	const b = new PathBuilder();
	const u1 = b.user(words(100));
	b.toolTurn("read", { path: "src/a.ts" }, words(50));
	b.assistant(words(50));
	const u2 = b.user(words(100));
	b.toolTurn("edit", { path: "src/b.ts" }, words(50));
	b.assistant(words(50));
	const u3 = b.user(words(100));
	b.assistant(words(100));
	return { b, u1, u2, u3 };
}

describe("prepareCompaction", () => {
	it("plans the first compaction: cut, files, tokens and the exact initial prompt", async () => {
		const { b, u3 } = threeTurns();
		const plan = prepareCompaction(b.records, settings(150));
		expect(plan).toBeDefined();
		if (!plan) return;
		expect(plan.firstKeptSeq).toBe(u3.seq);
		expect(plan.isSplitTurn).toBe(false);
		expect(plan.previousSummary).toBeUndefined();
		expect(plan.readFiles).toEqual(["src/a.ts"]);
		expect(plan.modifiedFiles).toEqual(["src/b.ts"]);
		expect(plan.tokensKept).toBe(200);
		expect(plan.contextTokens).toBe(plan.tokensBefore + plan.tokensKept);
		expect(plan.systemPrompt).toBe(SUMMARIZATION_SYSTEM_PROMPT);
		expect(plan.parts).toHaveLength(1);
		const [part] = plan.parts;
		expect(part?.kind).toBe("initial");
		expect(seqs(partMessages(b.records, part))).toEqual(b.records.slice(0, b.records.indexOf(u3)).map((r) => r.seq));
		expect(await renderPartPrompt(plan, part as SummaryPart)).toBe(
			renderSummaryPrompt("initial", serializeConversation(partMessages(b.records, part))),
		);
	});

	it("is undefined when everything fits in keepRecentTokens", () => {
		const { b } = threeTurns();
		expect(prepareCompaction(b.records, settings(20_000))).toBeUndefined();
		expect(prepareCompaction([], settings(0))).toBeUndefined();
	});

	it("caps keepRecentTokens by the model's window so that a small model still compacts", () => {
		const { b } = threeTurns();
		expect(effectiveKeepRecentTokens({ ...settings(20_000), reserveTokens: 400 }, 800)).toBe(200);
		expect(effectiveKeepRecentTokens(settings(20_000))).toBe(20_000);
		const plan = prepareCompaction(b.records, { ...settings(20_000), reserveTokens: 400 }, { contextWindow: 800 });
		expect(plan?.tokensKept).toBe(200);
	});

	it("S7.17: after a compaction it folds the new messages into the previous summary with the update prompt", async () => {
		const { b, u2 } = threeTurns();
		const previous = appendFileOperations(validSummary("first"), { readFiles: ["old.ts"], modifiedFiles: [] });
		b.compaction({
			firstKeptSeq: u2.seq,
			summary: previous,
			tokensBefore: 1,
			readFiles: ["old.ts"],
			modifiedFiles: [],
		});
		const u4 = b.user(words(100));
		b.assistant(words(100));
		const plan = prepareCompaction(b.records, settings(150));
		expect(plan?.previousSummary).toBe(validSummary("first"));
		const [part] = plan?.parts ?? [];
		expect(part?.kind).toBe("update");
		const prompt = await renderPartPrompt(plan as CompactionPlan, part as SummaryPart);
		expect(prompt).toContain(`<previous-summary>\n${validSummary("first")}\n</previous-summary>`);
		expect(prompt).not.toContain("<read-files>");
		expect(plan?.firstKeptSeq).toBe(u4.seq);
		expect(plan?.previousCompactionSeq).toBe(b.records.find((r) => r.recordType === "compaction")?.seq);
	});

	it("summarizes the messages the previous compaction kept, and never those it summarized", () => {
		const { b, u2, u3 } = threeTurns();
		const compaction = b.compaction({
			firstKeptSeq: u2.seq,
			summary: validSummary(),
			tokensBefore: 1,
			readFiles: [],
			modifiedFiles: [],
		});
		const u4 = b.user(words(100));
		b.assistant(words(100));
		const plan = prepareCompaction(b.records, settings(150));
		const summarized = seqs(partMessages(b.records, plan?.parts[0]));
		const kept = b.records.filter((r) => r.seq >= u2.seq && r.seq < u4.seq && r.seq !== compaction.seq);
		expect(summarized).toEqual(kept.map((r) => r.seq));
		expect(summarized).toContain(u3.seq);
		expect(summarized.every((seq) => (seq ?? 0) >= u2.seq)).toBe(true);
	});

	it("may cut inside the previous compaction's kept messages", () => {
		const { b, u2, u3 } = threeTurns();
		b.compaction({ firstKeptSeq: u2.seq, summary: validSummary(), tokensBefore: 1, readFiles: [], modifiedFiles: [] });
		const plan = prepareCompaction(b.records, settings(150));
		expect(plan?.firstKeptSeq).toBe(u3.seq);
		expect(seqs(partMessages(b.records, plan?.parts[0]))).toEqual(
			b.records.filter((r) => r.seq >= u2.seq && r.seq < u3.seq).map((r) => r.seq),
		);
	});

	it("gives the same plan from the suffix a resume reads as from the full path", () => {
		const { b, u2 } = threeTurns();
		b.compaction({
			firstKeptSeq: u2.seq,
			summary: validSummary(),
			tokensBefore: 1,
			readFiles: ["x"],
			modifiedFiles: [],
		});
		b.user(words(100));
		b.assistant(words(100));
		const full = prepareCompaction(b.records, settings(150));
		const suffix = prepareCompaction(b.records.slice(b.records.indexOf(u2)), settings(150));
		expect(suffix).toEqual({ ...full, firstKeptIndex: (full?.firstKeptIndex ?? 0) - b.records.indexOf(u2) });
	});

	it("S7.15: carries the previous compaction's files and adds branch summaries' files", () => {
		const { b, u3 } = threeTurns();
		b.compaction({
			firstKeptSeq: u3.seq,
			summary: validSummary(),
			tokensBefore: 1,
			readFiles: ["first/read.ts"],
			modifiedFiles: ["first/mod.ts"],
		});
		b.append({
			recordType: "branch_summary",
			fromSeq: 2,
			summary: "tried X",
			readFiles: ["branch/r.ts"],
			modifiedFiles: ["branch/m.ts"],
		});
		b.toolTurn("read", { path: "first/mod.ts" }, "...");
		b.toolTurn("read", { path: "first/read.ts" }, "...");
		b.user(words(100));
		b.assistant(words(100));
		const plan = prepareCompaction(b.records, settings(150));
		// u3's turn (kept by the first compaction) is summarized now: its files are new here.
		expect(plan?.readFiles).toEqual(["branch/r.ts", "first/read.ts"]);
		expect(plan?.modifiedFiles).toEqual(["branch/m.ts", "first/mod.ts"]);
	});

	it("splits a long turn: history with the summary prompt, the turn's first part with the turn-prefix prompt", () => {
		const b = new PathBuilder();
		b.user(words(100));
		b.assistant(words(100));
		const turn = b.user(words(50));
		b.toolTurn("bash", { command: "make" }, words(200));
		const later = b.assistant(words(200));
		const plan = prepareCompaction(b.records, settings(150));
		expect(plan).toMatchObject({ isSplitTurn: true, turnStartSeq: turn.seq, firstKeptSeq: later.seq });
		expect(plan?.parts.map((p) => [p.part, p.kind])).toEqual([
			["summary", "initial"],
			["turn-prefix", "turn-prefix"],
		]);
		expect(seqs(partMessages(b.records, plan?.parts[1]))).toEqual([turn.seq, turn.seq + 1, turn.seq + 2]);
	});

	it("a split turn with nothing before it gets the structured summary", () => {
		const b = new PathBuilder();
		b.user(words(50));
		b.toolTurn("bash", { command: "make" }, words(200));
		b.assistant(words(200));
		const plan = prepareCompaction(b.records, settings(150));
		expect(plan?.isSplitTurn).toBe(true);
		expect(plan?.parts.map((p) => [p.part, p.kind])).toEqual([["summary", "initial"]]);
	});

	it("a split turn with nothing new before it keeps the previous summary and adds the turn prefix", () => {
		const b = new PathBuilder();
		const compaction = b.compaction({
			firstKeptSeq: 2,
			summary: validSummary(),
			tokensBefore: 1,
			readFiles: [],
			modifiedFiles: [],
		});
		const turn = b.user(words(50));
		b.toolTurn("bash", { command: "make" }, words(200));
		b.assistant(words(200));
		const plan = prepareCompaction(b.records, settings(150));
		expect(compaction.firstKeptSeq).toBe(turn.seq);
		expect(plan?.parts.map((p) => [p.part, p.kind])).toEqual([["turn-prefix", "turn-prefix"]]);
		expect(plan?.previousSummary).toBe(validSummary());
	});

	it("puts custom instructions into the prompts rendered from the plan", async () => {
		const { b } = threeTurns();
		const plan = prepareCompaction(b.records, settings(150), { customInstructions: "focus on src/b.ts" });
		const prompt = await renderPartPrompt(plan as CompactionPlan, plan?.parts[0] as SummaryPart);
		expect(prompt.endsWith("focus on src/b.ts")).toBe(true);
	});

	it("ignores records that are not sent to the LLM", () => {
		const b = new PathBuilder();
		b.append({ recordType: "session_info", name: "x" });
		b.user(words(100));
		b.append({ recordType: "model_change", provider: "p", modelId: "m" });
		b.assistant(words(100));
		const last = b.user(words(100));
		const plan = prepareCompaction(b.records, settings(50));
		expect(plan?.firstKeptSeq).toBe(last.seq);
		expect(partMessages(b.records, plan?.parts[0]).map((m) => m.role)).toEqual(["user", "assistant"]);
		expect((b.records as StoredRecord[]).length).toBe(5);
	});
});
