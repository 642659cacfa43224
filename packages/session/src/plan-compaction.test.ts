import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { prepareCompaction, renderPartPrompt, type SummaryPart } from "@agent/compaction";
import { DEFAULT_COMPACTION_SETTINGS } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { AgentSessions } from "./runtime.js";

async function sessionWithHistory() {
	const home = await fs.mkdtemp(path.join(os.tmpdir(), "agent-session-plan-"));
	const sessions = await AgentSessions.open({ home });
	const { id } = await sessions.create({ model: "demo", systemPromptOverride: "Be brief." });
	for (let turn = 1; turn <= 4; turn++) {
		await sessions.store.append(id, [
			{ recordType: "message", role: "user", content: [{ type: "text", text: `question ${turn} `.repeat(20) }] },
			{ recordType: "message", role: "assistant", content: [{ type: "text", text: `answer ${turn} `.repeat(20) }] },
		]);
	}
	return { sessions, id };
}

describe("planCompaction", () => {
	it("plans exactly the compaction that compact() then carries out, and writes nothing", async () => {
		const { sessions, id } = await sessionWithHistory();
		const before = await sessions.store.metadata(id);
		const preview = await sessions.planCompaction(id, {
			keepRecentTokens: 60,
			customInstructions: "focus on answers",
		});
		expect(preview.model).toBe("demo/demo");
		expect(preview.contextTokens).toBeGreaterThan(0);
		const plan = preview.plan;
		if (!plan) throw new Error("expected a plan");
		expect(await renderPartPrompt(plan, plan.parts[0] as SummaryPart)).toContain("focus on answers");
		expect((await sessions.store.metadata(id)).lastSeq).toBe(before.lastSeq);

		const record = await sessions.compact(id, { keepRecentTokens: 60, customInstructions: "focus on answers" });
		expect(record).toMatchObject({
			recordType: "compaction",
			firstKeptSeq: plan.firstKeptSeq,
			tokensBefore: plan.tokensBefore,
			readFiles: plan.readFiles,
			modifiedFiles: plan.modifiedFiles,
		});
	});

	it("has no plan when everything fits in the recent tokens kept", async () => {
		const { sessions, id } = await sessionWithHistory();
		const preview = await sessions.planCompaction(id, { keepRecentTokens: 1_000_000 });
		expect(preview.plan).toBeUndefined();
		expect(await sessions.compact(id, { keepRecentTokens: 1_000_000 })).toBeUndefined();
	});

	it("plans a linear session from its log in one streamed read: the plan its resumed path gives", async () => {
		const { sessions, id } = await sessionWithHistory();
		await sessions.store.label(id, 3, "a label is a side record");
		const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 60 };
		const preview = await sessions.planCompaction(id, { keepRecentTokens: 60 });
		const opened = await sessions.store.open(id);
		const expected = prepareCompaction(opened.path, settings, {
			contextWindow: 32_000,
			systemPrompt: "Be brief.",
		});
		expect(preview.plan).toEqual(expected);
		expect(preview.contextTokens).toBe(opened.context.estimatedTokens);
	});

	it("plans a branched session (its leaf moved back) from its resumed path", async () => {
		const { sessions, id } = await sessionWithHistory();
		await sessions.store.branch(id, 6);
		await sessions.store.append(id, [
			{ recordType: "message", role: "user", content: [{ type: "text", text: "another way ".repeat(20) }] },
		]);
		const preview = await sessions.planCompaction(id, { keepRecentTokens: 60 });
		const opened = await sessions.store.open(id);
		expect(opened.path.map((r) => r.seq)).not.toContain(7);
		const expected = prepareCompaction(
			opened.path,
			{ ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 60 },
			{ contextWindow: 32_000, systemPrompt: "Be brief." },
		);
		expect(preview.plan).toEqual(expected);
		if (!expected) throw new Error("expected a plan");
		const record = await sessions.compact(id, { keepRecentTokens: 60 });
		expect(record).toMatchObject({ recordType: "compaction", firstKeptSeq: expected.firstKeptSeq });
	});
});
