import { describe, expect, it } from "vitest";
import { missingSummarySections, REQUIRED_SUMMARY_SECTIONS } from "./sections.js";
import { validSummary } from "./test-fixtures.js";

describe("the required summary sections (S7.14)", () => {
	it("are Goal, Progress, Key Decisions, Next Steps and Critical Context", () => {
		expect(REQUIRED_SUMMARY_SECTIONS).toEqual(["Goal", "Progress", "Key Decisions", "Next Steps", "Critical Context"]);
	});

	it("a summary in the spec's format lacks none", () => {
		expect(missingSummarySections(validSummary())).toEqual([]);
	});

	it("names the sections that are missing, in order", () => {
		expect(missingSummarySections("## Goal\n- x\n## Next Steps\n1. y")).toEqual([
			"Progress",
			"Key Decisions",
			"Critical Context",
		]);
		expect(missingSummarySections("")).toEqual([...REQUIRED_SUMMARY_SECTIONS]);
	});

	it("accepts headings in another case, with trailing words or markup, but not as ### or in prose", () => {
		const loose = "## goal\n## **Progress**\n##  Key Decisions:\n## Next Steps (ordered)\n## Critical Context ##";
		expect(missingSummarySections(loose)).toEqual([]);
		expect(missingSummarySections("### Goal\nThe Goal is x.\n## Goals")).toContain("Goal");
	});
});
