import {
	AgentSessionError,
	buildContextFromPath,
	type CompactionSettings,
	compactionSummaryText,
	DEFAULT_COMPACTION_SETTINGS,
	isAgentSessionError,
	pathSettingsOf,
	validateRecordInput,
} from "@agent/session-format";
import { fauxAssistantMessage } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { compact } from "./compact.js";
import { renderPartPrompt } from "./part-material.js";
import { prepareCompaction, type SummaryPart } from "./prepare.js";
import {
	SUMMARIZATION_PROMPT,
	SUMMARIZATION_SYSTEM_PROMPT,
	TURN_PREFIX_HEADING,
	TURN_PREFIX_PROMPT,
} from "./prompts.js";
import { missingSummarySections } from "./sections.js";
import { PathBuilder, useFauxSummarizers, validSummary, words } from "./test-fixtures.js";

const settings: CompactionSettings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 150 };
const summarizer = useFauxSummarizers();

function session() {
	const b = new PathBuilder();
	b.user(words(100));
	b.toolTurn("read", { path: "src/a.ts" }, words(50));
	b.assistant(words(50));
	b.user(words(100));
	b.toolTurn("edit", { path: "src/b.ts" }, words(50));
	b.assistant(words(50));
	const kept = b.user(words(100));
	b.assistant(words(100));
	return { b, kept };
}

async function rejection(promise: Promise<unknown>): Promise<AgentSessionError> {
	try {
		await promise;
	} catch (error) {
		if (error instanceof AgentSessionError) return error;
		throw error;
	}
	throw new Error("expected a rejection");
}

describe("compact", () => {
	it("S7.14: returns a compaction record with the structured summary and the file tags", async () => {
		const { b, kept } = session();
		const { model, prompts } = summarizer(() => validSummary("one"));
		const plan = prepareCompaction(b.records, settings);
		if (!plan) throw new Error("expected a plan");
		const record = await compact(plan, { model, trigger: "threshold" });
		expect(record).toMatchObject({
			recordType: "compaction",
			firstKeptSeq: kept.seq,
			tokensBefore: plan.tokensBefore,
			readFiles: ["src/a.ts"],
			modifiedFiles: ["src/b.ts"],
			trigger: "threshold",
		});
		expect(missingSummarySections(record.summary)).toEqual([]);
		expect(() => validateRecordInput(record, { seq: 99, timestamp: "2025-02-11T10:00:00.000Z" })).not.toThrow();
		expect(record.summary).toBe(
			`${validSummary("one")}\n\n<read-files>\nsrc/a.ts\n</read-files>\n\n<modified-files>\nsrc/b.ts\n</modified-files>`,
		);
		expect(prompts).toEqual([
			{ system: SUMMARIZATION_SYSTEM_PROMPT, user: await renderPartPrompt(plan, plan.parts[0] as SummaryPart) },
		]);

		// S7.11: the context after compaction is the summary, then the kept messages.
		const compacted = b.append(record);
		const context = buildContextFromPath(b.records);
		expect(context.messages.map((m) => m.seq)).toEqual([compacted.seq, kept.seq, kept.seq + 1]);
		expect(record.tokensAfter).toBe(context.estimatedTokens);
		expect(context.messages[0]?.content).toEqual([{ type: "text", text: compactionSummaryText(record.summary) }]);
	});

	it("the record carries the model and thinking level in force at the end of the path (the store need not read the path back)", async () => {
		const b = new PathBuilder();
		b.append({ recordType: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" });
		b.append({ recordType: "thinking_level_change", thinkingLevel: "high" });
		b.user(words(100));
		b.assistant(words(100), { provider: "openai", model: "gpt-5" });
		b.user(words(100));
		b.assistant(words(100));
		const { model } = summarizer(() => validSummary("one"));
		const plan = prepareCompaction(b.records, settings);
		if (!plan) throw new Error("expected a plan");
		const expected = { model: { provider: "openai", modelId: "gpt-5" }, thinkingLevel: "high" };
		expect(pathSettingsOf(b.records)).toEqual(expected);
		expect(plan.pathSettings).toEqual(expected);
		expect((await compact(plan, { model })).pathSettings).toEqual(expected);
	});

	it("defaults to pi-ai's complete and to the manual trigger", async () => {
		const { b } = session();
		const { model, prompts } = summarizer();
		const plan = prepareCompaction(b.records, settings);
		if (!plan) throw new Error("expected a plan");
		const record = await compact(plan, { model });
		expect(record.trigger).toBe("manual");
		expect(prompts).toHaveLength(1);
	});

	it("passes an injected complete function the model, the prompts, maxTokens and the signal", async () => {
		const { b } = session();
		const { model } = summarizer();
		const plan = prepareCompaction(b.records, settings);
		if (!plan) throw new Error("expected a plan");
		const seen: unknown[] = [];
		const controller = new AbortController();
		await compact(plan, {
			model,
			signal: controller.signal,
			complete: async (m, context, options) => {
				seen.push({ id: m.id, system: context.systemPrompt, maxTokens: options?.maxTokens, signal: options?.signal });
				return fauxAssistantMessage(validSummary());
			},
		});
		expect(seen).toEqual([
			{ id: model.id, system: SUMMARIZATION_SYSTEM_PROMPT, maxTokens: 13_107, signal: controller.signal },
		]);
	});

	it("asks once more when the answer lacks required sections", async () => {
		const { b } = session();
		const { model, prompts } = summarizer((_, i) => (i === 0 ? "Sure! The user wanted things." : validSummary()));
		const plan = prepareCompaction(b.records, settings);
		if (!plan) throw new Error("expected a plan");
		const record = await compact(plan, { model });
		expect(prompts).toHaveLength(2);
		expect(prompts[1]?.user).toContain('no "## Goal" section');
		expect(record.summary.startsWith(validSummary())).toBe(true);
	});

	it("fails with COMPACTION_FAILED when the answer lacks required sections twice", async () => {
		const { b } = session();
		const { model, prompts } = summarizer(() => "## Goal\n- x\n\n## Progress\n- y");
		const plan = prepareCompaction(b.records, settings);
		if (!plan) throw new Error("expected a plan");
		const error = await rejection(compact(plan, { model }));
		expect(error.code).toBe("COMPACTION_FAILED");
		expect(error.message).toMatch(/^@agent\/compaction: /);
		expect(error.message).toContain('no "## Key Decisions" section');
		expect(prompts).toHaveLength(2);
	});

	it("retries transient provider errors with exponential backoff", async () => {
		const { b } = session();
		const failing = (n: number) => (_: string, i: number) =>
			i < n ? fauxAssistantMessage([], { stopReason: "error", errorMessage: "503 overloaded" }) : validSummary();
		const { model, prompts } = summarizer(failing(2));
		const plan = prepareCompaction(b.records, settings);
		if (!plan) throw new Error("expected a plan");
		const delays: number[] = [];
		const sleep = async (ms: number) => {
			delays.push(ms);
		};
		await compact(plan, { model, retry: { baseDelayMs: 100, sleep } });
		expect(prompts).toHaveLength(3);
		expect(delays).toEqual([100, 200]);
	});

	it("gives up on a transient error after maxRetries, and at once on a permanent one", async () => {
		const { b } = session();
		const plan = prepareCompaction(b.records, settings);
		if (!plan) throw new Error("expected a plan");
		const sleep = async () => {};
		const transient = summarizer(() =>
			fauxAssistantMessage([], { stopReason: "error", errorMessage: "socket hang up" }),
		);
		const error = await rejection(compact(plan, { model: transient.model, retry: { maxRetries: 2, sleep } }));
		expect(error.code).toBe("COMPACTION_FAILED");
		expect(error.message).toContain("after 3 tries: socket hang up");
		expect(transient.prompts).toHaveLength(3);

		const permanent = summarizer(() =>
			fauxAssistantMessage([], { stopReason: "error", errorMessage: "401 invalid x-api-key" }),
		);
		const denied = await rejection(compact(plan, { model: permanent.model, retry: { sleep } }));
		expect(denied.code).toBe("COMPACTION_FAILED");
		expect(permanent.prompts).toHaveLength(1);
	});

	it("retries a thrown error from an injected complete function", async () => {
		const { b } = session();
		const { model } = summarizer();
		const plan = prepareCompaction(b.records, settings);
		if (!plan) throw new Error("expected a plan");
		let calls = 0;
		const record = await compact(plan, {
			model,
			retry: { sleep: async () => {} },
			complete: async () => {
				calls++;
				if (calls === 1) throw new Error("ECONNRESET");
				return fauxAssistantMessage(validSummary());
			},
		});
		expect(calls).toBe(2);
		expect(record.recordType).toBe("compaction");
	});

	it("honours an AbortSignal: before the call, and during a backoff", async () => {
		const { b } = session();
		const plan = prepareCompaction(b.records, settings);
		if (!plan) throw new Error("expected a plan");
		const { model, prompts } = summarizer();
		const aborted = AbortSignal.abort();
		expect((await rejection(compact(plan, { model, signal: aborted }))).code).toBe("ABORTED");
		expect(prompts).toHaveLength(0);

		const controller = new AbortController();
		const overloaded = summarizer(() => fauxAssistantMessage([], { stopReason: "error", errorMessage: "overloaded" }));
		const sleep = async () => controller.abort();
		const error = await rejection(
			compact(plan, { model: overloaded.model, signal: controller.signal, retry: { sleep } }),
		);
		expect(isAgentSessionError(error, "ABORTED")).toBe(true);
		expect(overloaded.prompts).toHaveLength(1);
	});

	it("treats an aborted answer as an abort", async () => {
		const { b } = session();
		const plan = prepareCompaction(b.records, settings);
		if (!plan) throw new Error("expected a plan");
		const { model } = summarizer(() => fauxAssistantMessage([], { stopReason: "aborted", errorMessage: "aborted" }));
		expect((await rejection(compact(plan, { model }))).code).toBe("ABORTED");
	});

	it("uses custom instructions given to compact over the plan's", async () => {
		const { b } = session();
		const { model, prompts } = summarizer();
		const plan = prepareCompaction(b.records, settings, { customInstructions: "from the plan" });
		if (!plan) throw new Error("expected a plan");
		await compact(plan, { model, customInstructions: "from compact" });
		expect(prompts[0]?.user.endsWith("Additional instructions for this summary:\nfrom compact")).toBe(true);
		await compact(plan, { model });
		expect(prompts[1]?.user).toBe(await renderPartPrompt(plan, plan.parts[0] as SummaryPart));
	});

	it("summarizes a split turn's first part with the turn-prefix prompt and merges it", async () => {
		const b = new PathBuilder();
		b.user(words(100));
		b.assistant(words(100));
		b.user("build it");
		b.toolTurn("bash", { command: "make" }, words(200));
		b.assistant(words(200));
		const plan = prepareCompaction(b.records, settings);
		expect(plan?.isSplitTurn).toBe(true);
		if (!plan) return;
		const { model, prompts } = summarizer((user) =>
			user.includes(TURN_PREFIX_PROMPT) ? "### Request\n- build it\n\n### Work So Far\n- ran make" : validSummary(),
		);
		const record = await compact(plan, { model });
		expect(prompts.map((p) => p.user.endsWith(TURN_PREFIX_PROMPT))).toEqual([false, true]);
		expect(prompts[0]?.user.endsWith(SUMMARIZATION_PROMPT)).toBe(true);
		expect(prompts[1]?.user).toContain('[Assistant tool calls]: bash(command="make")');
		expect(record.summary).toBe(
			`${validSummary()}\n\n${TURN_PREFIX_HEADING}\n\n### Request\n- build it\n\n### Work So Far\n- ran make`,
		);
	});

	it("needs a model", async () => {
		const { b } = session();
		const plan = prepareCompaction(b.records, settings);
		if (!plan) throw new Error("expected a plan");
		const error = await rejection(compact(plan, undefined as never));
		expect(error.code).toBe("INVALID_ARGUMENT");
	});
});
