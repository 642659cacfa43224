import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { firstTexts, normaliseOurs, ourContext } from "../testing/test-context.js";
import { convertRfc0064 } from "./rfc0064-import.js";

const FIXTURE = fileURLToPath(new URL("../../test/fixtures/rfc0064/sessions/crab_user_3.jsonl", import.meta.url));
const lines = readFileSync(FIXTURE, "utf8").split("\n");

describe("convertRfc0064", () => {
	const converted = convertRfc0064(lines, { sourcePath: FIXTURE });

	it("keys the session by agent, creator and creation time; keeps title, identity and uptime", () => {
		expect(converted).toMatchObject({
			format: "rfc0064",
			sourceId: "crab/user/2026-02-25T10:00:00Z",
			identityKey: "crab/user",
			name: "Trip planning",
			uptimeSeconds: 321,
			createdAt: "2026-02-25T10:00:00Z",
		});
	});

	it("a compact marker: the context starts at the last marker, its summary first", () => {
		const context = ourContext(converted.records);
		expect(firstTexts(normaliseOurs(context))).toEqual([
			"Summary of conversation so far: greetings were exchanged.",
			"what were we talking about?",
			"We exchanged greetings.",
		]);
		expect(context.compaction?.tokensBefore).toBeGreaterThan(0);
	});

	it("auto_injected and undocumented lines are kept as custom records, with warnings naming their lines", () => {
		const customs = converted.records.filter((r) => r.recordType === "custom" && r.customType === "rfc0064:line");
		expect(customs).toHaveLength(2);
		const text = converted.warnings.join("\n");
		expect(text).toMatch(/line 7: an auto_injected message/);
		expect(text).toMatch(/line 8: a line with role "tool"/);
	});

	it("refuses a file whose first line is not a meta line", () => {
		expect(() => convertRfc0064(['{"role":"user","content":"hi"}'], { sourcePath: "/s/x.jsonl" })).toThrow(
			/@agent\/interop: \/s\/x.jsonl line 1: is not an rfc-0064 meta line/,
		);
	});
});
