import { describe, expect, it } from "vitest";
import { buildContext, buildContextFromPath, compactionSummaryText, type SessionContext } from "./context.js";
import { isAgentSessionError } from "./errors.js";
import { parseSessionLog } from "./log.js";
import type { StoredRecord } from "./records.js";
import { recordLine } from "./serialize.js";
import { assistant, compaction, custom, toolResult, user } from "./test-builders.js";
import { BRANCHED } from "./test-fixtures.js";
import { SessionTree } from "./tree.js";

/** Each context message as "origin:seq role text". */
function shape(context: SessionContext): string[] {
	return context.messages.map((m) => {
		const text = m.content.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join("|");
		return `${m.origin}:${m.seq ?? "-"} ${m.role} ${text}`;
	});
}

const WRAPPER = (summary: string) =>
	`The conversation history before this point was compacted into the following summary:\n<summary>\n${summary}\n</summary>`;

describe("S7.3 loading a session reconstructs the full history and applies compaction overlays", () => {
	const linear: StoredRecord[] = [
		user(1, "one"),
		assistant(2, "two"),
		user(3, "three"),
		assistant(4, "four"),
		compaction(5, 3, "summary of one and two"),
		user(6, "six"),
	];

	it("S7.3 every record of the log is read back (nothing is lost), and the context applies the overlay", () => {
		const { records, problems } = parseSessionLog(linear.map(recordLine).join(""));
		expect(problems).toEqual([]);
		expect(records).toStrictEqual(linear);
		expect(shape(buildContext(records))).toEqual([
			`compaction_summary:5 user ${WRAPPER("summary of one and two")}`,
			"message:3 user three",
			"message:4 assistant four",
			"message:6 user six",
		]);
	});

	it("S7.3 the history before the compaction stays in the tree and is the context of an earlier leaf", () => {
		const tree = new SessionTree(linear);
		expect(shape(buildContext(tree, { leafSeq: 4 }))).toEqual([
			"message:1 user one",
			"message:2 assistant two",
			"message:3 user three",
			"message:4 assistant four",
		]);
	});
});

describe("S7.11 context after compaction = summary + messages from firstKeptSeq on", () => {
	it("S7.11 the summary is a user message with the spec's wrapper text exactly, then the kept and the later messages", () => {
		const context = buildContext([
			user(1, "a"),
			assistant(2, "b"),
			user(3, "c"),
			assistant(4, "d"),
			compaction(5, 3, "## Goal\nship it"),
			assistant(6, "f"),
		]);
		expect(context.messages[0]?.content).toEqual([
			{
				type: "text",
				text: "The conversation history before this point was compacted into the following summary:\n<summary>\n## Goal\nship it\n</summary>",
			},
		]);
		expect(compactionSummaryText("## Goal\nship it")).toBe(WRAPPER("## Goal\nship it"));
		expect(shape(context).slice(1)).toEqual(["message:3 user c", "message:4 assistant d", "message:6 assistant f"]);
		expect(context.compaction?.seq).toBe(5);
	});

	it("S7.11 the latest compaction on the path wins; earlier ones are superseded", () => {
		const context = buildContext([
			user(1, "a"),
			assistant(2, "b"),
			compaction(3, 2, "first"),
			user(4, "c"),
			assistant(5, "d"),
			compaction(6, 4, "second"),
			user(7, "e"),
		]);
		expect(shape(context)).toEqual([
			`compaction_summary:6 user ${WRAPPER("second")}`,
			"message:4 user c",
			"message:5 assistant d",
			"message:7 user e",
		]);
	});

	it("S7.11 a firstKeptSeq whose record is missing (a skipped corrupt line) keeps the records with seq >= firstKeptSeq", () => {
		const context = buildContext([user(1, "a"), user(2, "b"), user(4, "d", { parentSeq: 2 }), compaction(5, 3, "s")]);
		expect(shape(context).slice(1)).toEqual(["message:4 user d"]);
	});

	it("S7.11 a firstKeptSeq after the compaction keeps nothing from before it", () => {
		const context = buildContext([user(1, "a"), compaction(2, 3, "s"), user(3, "c")]);
		expect(shape(context)).toEqual([`compaction_summary:2 user ${WRAPPER("s")}`, "message:3 user c"]);
	});

	it("S7.11 a kept tool result whose tool call was summarized is dropped and counted", () => {
		const context = buildContext([
			user(1, "a"),
			assistant(2, "b", { toolCalls: ["t1"] }),
			toolResult(3, "t1", "out"),
			assistant(4, "c"),
			compaction(5, 3, "s"),
		]);
		expect(shape(context).slice(1)).toEqual(["message:4 assistant c"]);
		expect(context.droppedToolResults).toBe(1);
	});
});

describe("context for each leaf of a tree with compactions on different branches", () => {
	const tree = new SessionTree(BRANCHED);

	it("the main branch applies only its own compaction (8), and takes the model of its last assistant message", () => {
		const context = buildContext(tree, { leafSeq: 9 });
		expect(shape(context)).toEqual([
			`compaction_summary:8 user ${WRAPPER("main summary")}`,
			"message:6 user main 6",
			"message:7 assistant main 7",
			"message:9 user main 9",
		]);
		expect(context.model).toEqual({ provider: "p", modelId: "m-b" });
		expect(context.thinkingLevel).toBeUndefined();
		expect(context.leafSeq).toBe(9);
	});

	it("branch B applies only its own compaction (13), with the model of the model_change and its thinking level", () => {
		const context = buildContext(tree, { leafSeq: 14 });
		expect(shape(context)).toEqual([
			`compaction_summary:13 user ${WRAPPER("b summary")}`,
			"message:10 user b 10",
			"message:12 assistant b 12",
			"message:14 assistant b 14",
		]);
		expect(context.compaction?.seq).toBe(13);
		expect(context.model).toEqual({ provider: "p", modelId: "m-a" });
		expect(context.thinkingLevel).toBe("high");
	});

	it("branch C has no compaction: branch_summary and custom_message become user messages, custom and labels never appear", () => {
		const context = buildContext(tree, { leafSeq: 22 });
		expect(shape(context)).toEqual([
			"message:1 user start",
			"branch_summary:15 user The conversation came back from another branch, summarized here:\n<summary>\ncame back from b\n</summary>",
			"custom_message:17 user note 17",
			"message:18 user c 18",
		]);
		expect(context.compaction).toBeUndefined();
		expect(JSON.stringify(context)).not.toContain("never sent");
		expect(context.model).toBeUndefined();
	});

	it("an interior leaf before any branch point sees the tool call and its result", () => {
		const context = buildContext(tree, { leafSeq: 4 });
		expect(shape(context)).toEqual([
			"message:1 user start",
			"message:3 assistant looking|[toolCall]",
			"message:4 toolResult result 4",
		]);
		expect(context.messages[2]).toMatchObject({ toolCallId: "tc3", toolName: "bash", isError: false });
	});

	it("without a leaf the context is that of the last record (a new root here)", () => {
		expect(shape(buildContext(tree))).toEqual(["message:23 user new root 23"]);
	});

	it("defaults give the model and thinking level when the path sets none", () => {
		const context = buildContext(tree, {
			leafSeq: 23,
			defaults: { model: { provider: "x", modelId: "y" }, thinkingLevel: "low" },
		});
		expect(context.model).toEqual({ provider: "x", modelId: "y" });
		expect(context.thinkingLevel).toBe("low");
	});

	it("a leafSeq that is not a record is an INVALID_ARGUMENT error, not an empty context", () => {
		try {
			buildContext(tree, { leafSeq: 99 });
			expect.unreachable("buildContext should have thrown");
		} catch (error) {
			expect(isAgentSessionError(error, "INVALID_ARGUMENT")).toBe(true);
			expect((error as Error).message).toMatch(/^@agent\/session-format: leafSeq 99 is not a record/);
		}
	});

	it("an empty session has an empty context with leafSeq null", () => {
		expect(buildContext([])).toMatchObject({ messages: [], leafSeq: null, estimatedTokens: 0, droppedToolResults: 0 });
	});
});

describe("context over a log with a corrupt line in the middle", () => {
	it("a corrupt line ends the path of the records after it: their context starts after the gap", () => {
		const lines = [user(1, "one"), assistant(2, "two"), user(3, "three"), assistant(4, "four")].map(recordLine);
		lines[1] = "{not json\n";
		const { records, problems } = parseSessionLog(lines.join(""));
		expect(problems.map((p) => [p.line, p.code])).toEqual([[2, "INVALID_JSON"]]);
		expect(new SessionTree(records).danglingRecords()).toEqual([{ seq: 3, parentSeq: 2 }]);
		expect(shape(buildContext(records))).toEqual(["message:3 user three", "message:4 assistant four"]);
	});
});

describe("ephemeral messages", () => {
	const records: StoredRecord[] = [user(1, "first"), assistant(2, "reply"), user(3, "second"), assistant(4, "answer")];

	it("go right before the last user message, in the order given", () => {
		const context = buildContext(records, {
			ephemeral: [{ content: "now: 10:00" }, { content: [{ type: "text", text: "cwd: /" }] }],
		});
		expect(shape(context)).toEqual([
			"message:1 user first",
			"message:2 assistant reply",
			"ephemeral:- user now: 10:00",
			"ephemeral:- user cwd: /",
			"message:3 user second",
			"message:4 assistant answer",
		]);
	});

	it("appear in no record: building a context leaves the records exactly as they were", () => {
		const before = structuredClone(records);
		const context = buildContext(records, { ephemeral: [{ content: "secret injected" }] });
		expect(records).toStrictEqual(before);
		expect(records.map(recordLine).join("")).not.toContain("secret injected");
		expect(context.messages.filter((m) => m.origin === "ephemeral").every((m) => m.seq === undefined)).toBe(true);
	});

	it("go at the end when the conversation has no user message yet", () => {
		const context = buildContext([assistant(1, "hello")], { ephemeral: [{ content: "x" }] });
		expect(shape(context)).toEqual(["message:1 assistant hello", "ephemeral:- user x"]);
	});
});

describe("token estimate and system prompt", () => {
	it("estimatedTokens is ceil(chars / 4) per message plus the system prompt", () => {
		const context = buildContext([user(1, "12345"), assistant(2, "123")], { systemPrompt: "1234567" });
		expect(context.estimatedTokens).toBe(2 + 1 + 2);
		expect(context.systemPrompt).toBe("1234567");
	});
});

describe("buildContextFromPath over a path suffix (what a backward read yields)", () => {
	it("gives the same messages as the full path when the suffix reaches back to firstKeptSeq", () => {
		const tree = new SessionTree(BRANCHED);
		const full = tree.path(14);
		const suffix = full.slice(full.findIndex((record) => record.seq === 10));
		expect(buildContextFromPath(suffix).messages).toEqual(buildContext(tree, { leafSeq: 14 }).messages);
	});

	it("a custom record on the path contributes nothing", () => {
		expect(buildContextFromPath([user(1, "a"), custom(2, "s", { x: 1 })]).messages).toHaveLength(1);
	});
});
