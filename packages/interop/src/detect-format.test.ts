import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { convertSession } from "./convert.js";
import { detectFormat } from "./detect-format.js";
import { v1Lines, v2Lines } from "./testing/test-pi-sessions.js";

function fixture(path: string): string[] {
	return readFileSync(fileURLToPath(new URL(`../test/fixtures/${path}`, import.meta.url)), "utf8").split("\n");
}

describe("detectFormat", () => {
	it.each([
		["pi", v1Lines().map((l) => JSON.stringify(l))],
		["pi", v2Lines().map((l) => JSON.stringify(l))],
		["codex", fixture("codex/rollout-2025-09-01T10-00-00-5f1c2a3b-0000-4000-8000-00000000c0de.jsonl")],
		["claude", fixture("claude/7c0e1d2f-3333-4c4c-9d9d-00000000c1a0.jsonl")],
		["rfc0064", fixture("rfc0064/sessions/crab_user_3.jsonl")],
		["fern", fixture("fern/sessions/telegram_12345_user_67890/session.jsonl")],
	])("recognises %s", (format, lines) => {
		expect(detectFormat(lines)).toBe(format);
	});

	it("does not guess for other JSONL (a fern tool log, our own records)", () => {
		expect(detectFormat(fixture("fern/sessions/telegram_12345_user_67890/tools.jsonl"))).toBeUndefined();
		expect(detectFormat(['{"recordType":"message","seq":1,"role":"user","content":[]}'])).toBeUndefined();
		expect(detectFormat(["not json", ""])).toBeUndefined();
	});

	it("convertSession refuses an undetectable file and an unknown --from, saying what to do", () => {
		expect(() => convertSession(["{}"], { sourcePath: "/a/b.jsonl" })).toThrow(
			/@agent\/interop: \/a\/b.jsonl: is not a session in a format this importer knows.*--from/,
		);
		expect(() => convertSession(["{}"], { from: "cursor" as never })).toThrow(/unknown format "cursor"/);
	});
});
