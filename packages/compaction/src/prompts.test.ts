import { describe, expect, it } from "vitest";
import {
	SUMMARIZATION_PROMPT,
	SUMMARIZATION_SYSTEM_PROMPT,
	SUMMARY_FORMAT,
	UPDATE_SUMMARIZATION_PROMPT,
} from "./prompts.js";
import { REQUIRED_SUMMARY_SECTIONS } from "./sections.js";
import { renderSummaryPrompt } from "./summary-prompts.js";

// The text of spec §7.5.4, line by line, as the spec prints it.
const SPEC_SYSTEM = [
	"You are a context summarization assistant. Your task is to read a conversation between",
	"a user and an AI agent, then produce a structured summary following the exact format",
	"specified. Do NOT continue the conversation. Do NOT respond to any questions in the",
	"conversation. ONLY output the structured summary.",
];

const SPEC_FORMAT = [
	"Use this EXACT format:",
	"",
	"## Goal",
	"[What is the user trying to accomplish? Can be multiple items.]",
	"",
	"## Constraints & Preferences",
	"- [Any constraints, preferences, or requirements mentioned by user]",
	"",
	"## Progress",
	"### Done",
	"- [x] [Completed tasks/changes]",
	"",
	"### In Progress",
	"- [ ] [Current work]",
	"",
	"### Blocked",
	"- [Issues preventing progress, if any]",
	"",
	"## Key Decisions",
	"- **[Decision]**: [Brief rationale]",
	"",
	"## Next Steps",
	"1. [Ordered list of what should happen next]",
	"",
	"## Critical Context",
	"- [Any data, examples, or references needed to continue]",
	"",
	"Keep each section concise. Preserve exact file paths, function names, and error messages.",
];

const SPEC_INITIAL = [
	"The messages above are a conversation to summarize. Create a structured context",
	"checkpoint summary that another LLM will use to continue the work.",
	"",
	...SPEC_FORMAT,
];

const SPEC_UPDATE_RULES = [
	"The messages above are NEW conversation messages to incorporate into the existing",
	"summary provided in <previous-summary> tags.",
	"",
	"Update the existing structured summary with new information. RULES:",
	"- PRESERVE all existing information from the previous summary",
	"- ADD new progress, decisions, and context from the new messages",
	'- UPDATE the Progress section: move items from "In Progress" to "Done" when completed',
	'- UPDATE "Next Steps" based on what was accomplished',
	"- PRESERVE exact file paths, function names, and error messages",
	"- If something is no longer relevant, you may remove it",
	"",
];

describe("golden prompts (spec §7.5.4, verbatim)", () => {
	it("the system prompt is the spec's text, line breaks included", () => {
		expect(SUMMARIZATION_SYSTEM_PROMPT).toBe(SPEC_SYSTEM.join("\n"));
	});

	it("the initial summarization prompt is the spec's text", () => {
		expect(SUMMARIZATION_PROMPT).toBe(SPEC_INITIAL.join("\n"));
		expect(SUMMARY_FORMAT).toBe(SPEC_FORMAT.join("\n"));
	});

	it("the update prompt is the spec's text with [Same format sections as initial prompt] spelled out", () => {
		expect(UPDATE_SUMMARIZATION_PROMPT).toBe([...SPEC_UPDATE_RULES, ...SPEC_FORMAT].join("\n"));
		expect(UPDATE_SUMMARIZATION_PROMPT).not.toContain("[Same format sections as initial prompt]");
	});

	it("the format asks for every required section (S7.14)", () => {
		for (const section of REQUIRED_SUMMARY_SECTIONS) expect(SUMMARY_FORMAT).toContain(`\n## ${section}\n`);
	});
});

describe("the user message of a summarization call", () => {
	it("puts the conversation above the initial prompt", () => {
		expect(renderSummaryPrompt("initial", "[User]: hi")).toBe(
			`<conversation>\n[User]: hi\n</conversation>\n\n${SPEC_INITIAL.join("\n")}`,
		);
	});

	it("puts the previous summary in <previous-summary> tags before the update prompt (S7.17)", () => {
		expect(renderSummaryPrompt("update", "[User]: more", "## Goal\n- old")).toBe(
			`<conversation>\n[User]: more\n</conversation>\n\n<previous-summary>\n## Goal\n- old\n</previous-summary>\n\n${[...SPEC_UPDATE_RULES, ...SPEC_FORMAT].join("\n")}`,
		);
	});

	it("appends custom instructions after the prompt, and ignores blank ones", () => {
		const withFocus = renderSummaryPrompt("initial", "[User]: hi", undefined, "  focus on the API  ");
		expect(
			withFocus.endsWith(`${SPEC_FORMAT.at(-1)}\n\nAdditional instructions for this summary:\nfocus on the API`),
		).toBe(true);
		expect(renderSummaryPrompt("initial", "[User]: hi", undefined, "   ")).toBe(
			renderSummaryPrompt("initial", "[User]: hi"),
		);
	});
});
