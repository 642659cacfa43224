import {
	branchSummaryText,
	buildContextFromPath,
	SessionTree,
	type StoredRecord,
	validateRecordInput,
} from "@agent/session-format";
import { fauxAssistantMessage } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { abandonedBranch, prepareBranchSummary, summarizeBranch } from "./branch-summary.js";
import { BRANCH_SUMMARY_PROMPT, BRANCH_SUMMARY_UPDATE_PROMPT, SUMMARIZATION_SYSTEM_PROMPT } from "./prompts.js";
import { PathBuilder, useFauxSummarizers, words } from "./test-fixtures.js";

const summarizer = useFauxSummarizers();

const BRANCH_ANSWER =
	"## Goal\n- try a cache\n\n## Outcome\n- it was slower\n\n## Worth Keeping\n- src/cache.ts is unused";

/** root: user, assistant; branch A (abandoned): user, read+edit, assistant; branch B starts at seq 2. */
function tree() {
	const b = new PathBuilder();
	b.user("start");
	const fork = b.assistant("ok");
	b.user("try a cache");
	b.toolTurn("read", { path: "src/cache.ts" }, "...");
	b.toolTurn("edit", { path: "src/index.ts" }, "ok");
	const oldLeaf = b.assistant("slower, giving up");
	const other = b.append({
		recordType: "message",
		role: "user",
		content: [{ type: "text", text: "instead" }],
		parentSeq: fork.seq,
	});
	const t = new SessionTree(b.records);
	return { b, t, fork, oldLeaf, other };
}

describe("branch summaries", () => {
	it("abandonedBranch gives the records of the old path after the fork point", () => {
		const { t, fork, oldLeaf, other } = tree();
		const left = abandonedBranch(t.path(oldLeaf.seq), t.path(other.seq));
		expect(left.map((r) => r.seq)).toEqual(Array.from({ length: oldLeaf.seq - fork.seq }, (_, i) => fork.seq + 1 + i));
		expect(abandonedBranch(t.path(oldLeaf.seq), t.path(oldLeaf.seq))).toEqual([]);
	});

	it("summarizes the branch left into a branch_summary record with its files", async () => {
		const { t, oldLeaf, other } = tree();
		const left = abandonedBranch(t.path(oldLeaf.seq), t.path(other.seq));
		const { model, prompts } = summarizer(() => BRANCH_ANSWER);
		const plan = prepareBranchSummary(left);
		const record = await summarizeBranch(left, { model });
		if (!record) throw new Error("expected a branch_summary record");
		expect(record).toEqual({
			recordType: "branch_summary",
			fromSeq: oldLeaf.seq,
			summary: `${BRANCH_ANSWER}\n\n<read-files>\nsrc/cache.ts\n</read-files>\n\n<modified-files>\nsrc/index.ts\n</modified-files>`,
			readFiles: ["src/cache.ts"],
			modifiedFiles: ["src/index.ts"],
		});
		expect(prompts).toEqual([{ system: SUMMARIZATION_SYSTEM_PROMPT, user: plan?.userPrompt }]);
		expect(() => validateRecordInput(record, { seq: 99, timestamp: "2025-02-11T10:00:00.000Z" })).not.toThrow();
		expect(plan?.userPrompt.endsWith(BRANCH_SUMMARY_PROMPT)).toBe(true);
		expect(plan?.userPrompt).toContain("[User]: try a cache");

		// Appended at the new leaf, the context carries it as a user message.
		const path: StoredRecord[] = [
			...t.path(other.seq),
			{ ...record, seq: 99, schemaVersion: 1, timestamp: "t" } as StoredRecord,
		];
		const context = buildContextFromPath(path);
		expect(context.messages.at(-1)?.content).toEqual([{ type: "text", text: branchSummaryText(record.summary) }]);
	});

	it("is undefined for a branch without messages, and fails like compact on an empty answer", async () => {
		const b = new PathBuilder();
		b.append({ recordType: "label", targetSeq: 1, label: "x" });
		const { model } = summarizer(() => "");
		expect(await summarizeBranch(b.records, { model })).toBeUndefined();
		const c = new PathBuilder();
		c.user("hello");
		await expect(summarizeBranch(c.records, { model })).rejects.toMatchObject({ code: "COMPACTION_FAILED" });
	});

	it("summarizes a branch bigger than the summarizer's window in chunks", async () => {
		const b = new PathBuilder();
		for (let i = 0; i < 30; i++) b.user(`step-${i} ${words(200)}`);
		const { model, prompts } = summarizer((_, i) => `## Goal\n- part ${i}`, { contextWindow: 4000 });
		const record = await summarizeBranch(b.records, { model, fromSeq: 7 });
		expect(record?.fromSeq).toBe(7);
		expect(prompts.length).toBeGreaterThan(2);
		expect(prompts[0]?.user.endsWith(BRANCH_SUMMARY_PROMPT)).toBe(true);
		expect(prompts[1]?.user.endsWith(BRANCH_SUMMARY_UPDATE_PROMPT)).toBe(true);
		expect(prompts[1]?.user).toContain("<previous-summary>\n## Goal\n- part 0\n</previous-summary>");
		expect(record?.summary).toBe(`## Goal\n- part ${prompts.length - 1}`);
	});

	it("honours custom instructions and the abort signal", async () => {
		const { b } = tree();
		const { model, prompts } = summarizer(() => fauxAssistantMessage(BRANCH_ANSWER));
		await summarizeBranch(b.records, { model, customInstructions: "mention timings" });
		expect(prompts[0]?.user.endsWith("mention timings")).toBe(true);
		await expect(summarizeBranch(b.records, { model, signal: AbortSignal.abort() })).rejects.toMatchObject({
			code: "ABORTED",
		});
	});
});
