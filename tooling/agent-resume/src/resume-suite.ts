import fs from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentTool, installed } from "./agent-tools.js";
import { ANSWER, importedBack, QUESTION, type ResumeCheck, type Resumed, resumeOurSession } from "./resume-check.js";
import { COMPACTED, TOOL_ROUND } from "./sessions.js";

export interface ResumeSuite<Request> {
	/** The tool's name in test titles: "Claude Code", "Codex". */
	title: string;
	/** How its non-interactive resume is typed, by id and of the project's latest session. */
	byId: string;
	latest: string;
	tools: AgentTool[];
	check(command: string[]): ResumeCheck<Request>;
	/**
	 * What a version tries to reach besides the model API whatever the switches say (the fake API,
	 * as the proxy, refuses it), by version; any other version must try nothing.
	 */
	knownOutbound?: Record<string, string[]>;
}

/**
 * The checks, for each version of the tool: our export resumes by id and as the project's latest
 * session, with and without a compaction; the tool sends our conversation in order, then the new
 * question; and the file it continued imports back as our context, the question and the answer.
 * A version whose install was skipped (the registry cannot be reached, never under CI=true) is
 * reported and its checks skipped.
 */
export async function describeResume<Request>(suite: ResumeSuite<Request>): Promise<void> {
	const tools = await Promise.all(suite.tools.map(async (tool) => ({ tool, found: await installed(tool) })));
	for (const { tool, found } of tools) {
		if ("skipped" in found) console.warn(`agent-resume: ${suite.title} ${tool.version} skipped: ${found.skipped}`);
		const check = suite.check("command" in found ? found.command : []);
		describe.skipIf("skipped" in found)(`${suite.title} ${tool.version} resumes an export`, () => {
			const roots: string[] = [];
			const resume = async (name: string, records: object[], how?: "by id" | "latest") => {
				const resumed = await resumeOurSession(check, name, records, how);
				roots.push(resumed.root);
				return resumed;
			};
			afterAll(() => Promise.all(roots.map((root) => fs.rm(root, { recursive: true, force: true }))));

			describe("a prompt, an answer calling a tool, the result, the final answer", () => {
				let resumed: Resumed;
				beforeAll(async () => {
					resumed = await resume("Shopping list", TOOL_ROUND);
				}, 180_000);

				it(`${suite.byId} finds the file where the export's note puts it and answers`, () => {
					expect(resumed.run.code, resumed.run.stderr).toBe(0);
					expect(resumed.run.stdout.trim()).toBe(ANSWER);
				});

				it("sends our conversation in order, the tool call and its result paired, then the new question", () => {
					expect(resumed.ours).toEqual([
						{ user: "What does notes.txt say?" },
						{ assistant: "Let me read it." },
						{ call: { id: "call_read_1", name: "Read", input: { file_path: "notes.txt" } } },
						{ result: { id: "call_read_1", text: "buy oat milk" } },
						{ assistant: "It says: buy oat milk." },
					]);
					expect(resumed.asked).toEqual([[...resumed.ours, { user: QUESTION }]]);
				});

				it("tries to reach nothing but the model API", () => {
					expect(new Set(resumed.outbound)).toEqual(new Set(suite.knownOutbound?.[tool.version] ?? []));
				});

				it(`the session ${suite.title} continued imports back as our context, the question and its answer`, async () => {
					expect(await importedBack(resumed)).toEqual([...resumed.ours, { user: QUESTION }, { assistant: ANSWER }]);
				});
			});

			it(`${suite.latest} picks the export as the project's latest session and sends the same`, async () => {
				const latest = await resume("Shopping list", TOOL_ROUND, "latest");
				expect(latest.run.code, latest.run.stderr).toBe(0);
				expect(latest.asked).toEqual([[...latest.ours, { user: QUESTION }]]);
			}, 180_000);

			describe("a compaction that kept the last exchange, then another tool round", () => {
				let resumed: Resumed;
				beforeAll(async () => {
					resumed = await resume("Compacted list", COMPACTED);
				}, 180_000);

				it("sends the summary, the kept exchange and what followed, in order, then the new question", () => {
					expect(resumed.run.code, resumed.run.stderr).toBe(0);
					expect(resumed.ours.map((step) => Object.keys(step)[0])).toEqual([
						"user",
						"user",
						"assistant",
						"user",
						"call",
						"result",
						"assistant",
					]);
					expect(resumed.ours[0]).toEqual({ user: expect.stringContaining("notes.txt says: buy oat milk.") });
					expect(resumed.asked).toEqual([[...resumed.ours, { user: QUESTION }]]);
				});

				it(`the session ${suite.title} continued imports back as our context, the question and its answer`, async () => {
					expect(await importedBack(resumed)).toEqual([...resumed.ours, { user: QUESTION }, { assistant: ANSWER }]);
				});
			});
		});
	}
}
