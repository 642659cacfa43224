import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildSessionContext, SessionManager } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { firstTexts, normaliseOurs, normalisePi, ourContext, storedRecords } from "../testing/test-context.js";
import { useTempDir } from "../testing/test-dir.js";
import {
	assistant,
	user,
	v1Lines,
	v2Lines,
	writeBranchedPiSession,
	writeCompactedPiSession,
	writeLinearPiSession,
	writeLines,
} from "../testing/test-pi-sessions.js";
import { convertPi } from "./pi-import.js";

let dir: string;
useTempDir("interop-pi-", (path) => {
	dir = path;
});

function linesOf(path: string): string[] {
	return readFileSync(path, "utf8").split("\n");
}

/** pi's own context for a file, as pi builds it when it opens the file (on a copy: pi migrates old files in place). */
function piContextOf(path: string) {
	const copy = join(dir, `copy-${Date.now()}-${Math.random()}.jsonl`);
	copyFileSync(path, copy);
	return normalisePi(SessionManager.open(copy, dir).buildSessionContext());
}

function expectSameContext(path: string) {
	const converted = convertPi(linesOf(path), { sourcePath: path });
	const ours = normaliseOurs(ourContext(converted.records));
	const pi = piContextOf(path);
	expect(pi.messages.length).toBeGreaterThan(0);
	expect(ours).toEqual(pi);
	return converted;
}

describe("convertPi: the context we build equals pi's buildSessionContext", () => {
	it("linear session with every entry type", () => {
		const path = writeLinearPiSession(dir);
		const converted = expectSameContext(path);
		expect(converted.format).toBe("pi");
		expect(converted.name).toBe("File listing");
		expect(converted.cwd).toBe("/work/project");
		expect(converted.model).toBe("openai/gpt-5");
		const header = JSON.parse(linesOf(path)[0] as string);
		expect(converted.sourceId).toBe(header.id);
		expect(converted.createdAt).toBe(header.timestamp);
		expect(converted.warnings).toEqual([]);
		const types = converted.records.map((record) => record.recordType);
		expect(types).toContain("label");
		expect(types).toContain("session_info");
		expect(types).toContain("model_change");
		expect(types).toContain("thinking_level_change");
		const bash = converted.records.filter((r) => "customType" in r && r.customType === "pi:bashExecution");
		expect(bash.map((r) => r.recordType)).toEqual(["custom_message", "custom_message", "custom"]);
	});

	it("bashExecution messages reach the LLM as the same user text pi sends", () => {
		const path = writeLinearPiSession(dir);
		const ours = normaliseOurs(ourContext(convertPi(linesOf(path)).records));
		const texts = ours.messages.flatMap((m) => (m.content ?? []) as Array<{ text?: string }>).map((b) => b.text);
		expect(texts).toContain("Ran `git status`\n```\nnothing to commit\n```");
		expect(texts).toContain(
			"Ran `make`\n(no output)\n\nCommand exited with code 2\n\n[Output truncated. Full output: /tmp/out.log]",
		);
		expect(texts.some((t) => t?.includes("not for the model"))).toBe(false);
	});

	it("branched session: the active leaf is pi's (the last entry)", () => {
		const path = writeBranchedPiSession(dir);
		const converted = expectSameContext(path);
		const ours = normaliseOurs(ourContext(converted.records));
		expect(firstTexts(ours)).toEqual(["Pick a language.", "TypeScript.", "Good choice."]);
		const records = storedRecords(converted.records);
		expect(records.some((r) => r.parentSeq !== undefined && r.parentSeq !== null)).toBe(true);
	});

	it("branch summary on the path, when the leaf is on the summarized branch", () => {
		const sm = SessionManager.create("/w", dir);
		const a = sm.appendMessage({ role: "user", content: "Q", timestamp: 1 });
		sm.appendMessage({
			role: "assistant",
			content: [{ type: "text", text: "A" }],
			api: "x",
			provider: "p",
			model: "m",
			usage: {
				input: 0,
				output: 0,
				cacheRead: 0,
				cacheWrite: 0,
				totalTokens: 0,
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
			},
			stopReason: "stop",
			timestamp: 1,
		});
		sm.branchWithSummary(a, "Left a branch.", { readFiles: ["x"], modifiedFiles: ["y"] });
		sm.appendMessage({ role: "user", content: "Next", timestamp: 1 });
		const converted = expectSameContext(sm.getSessionFile() as string);
		const summary = converted.records.find((r) => r.recordType === "branch_summary");
		expect(summary).toMatchObject({ summary: "Left a branch.", readFiles: ["x"], modifiedFiles: ["y"] });
	});

	it("compacted twice: firstKeptEntryId maps to firstKeptSeq and details to the file lists", () => {
		const path = writeCompactedPiSession(dir);
		const converted = expectSameContext(path);
		const compactions = converted.records.filter((r) => r.recordType === "compaction");
		expect(compactions).toHaveLength(2);
		expect(compactions[0]).toMatchObject({ tokensBefore: 1234, readFiles: ["a.txt"], modifiedFiles: ["b.txt"] });
		const first = compactions[0] as { firstKeptSeq: number };
		const kept = converted.records[first.firstKeptSeq - 1] as { content: Array<{ text: string }> };
		expect(kept.content[0]?.text).toBe("Step two: read the file.");
	});

	it("a compaction whose first kept entry is on another branch keeps nothing before it, as in pi", () => {
		const sm = SessionManager.create("/w", dir);
		const root = sm.appendMessage(user("root"));
		sm.appendMessage(assistant([{ type: "text", text: "answer" }]));
		const elsewhere = sm.appendMessage(user("on branch A"));
		sm.branch(root);
		sm.appendMessage(assistant([{ type: "text", text: "branch B" }]));
		sm.appendCompaction("summary of B", elsewhere, 10);
		sm.appendMessage(user("after"));
		const converted = expectSameContext(sm.getSessionFile() as string);
		expect(converted.warnings.join("\n")).toMatch(/not on its path/);
		expect(firstTexts(normaliseOurs(ourContext(converted.records)))).toEqual(["summary of B", "after"]);
	});

	it("v1 file (no ids, firstKeptEntryIndex): same context as pi after its own migration", () => {
		const path = writeLines(dir, "v1.jsonl", v1Lines());
		const converted = expectSameContext(path);
		const compaction = converted.records.find((r) => r.recordType === "compaction") as { firstKeptSeq: number };
		expect(converted.records[compaction.firstKeptSeq - 1]).toMatchObject({ role: "user" });
		expect(converted.model).toBe("anthropic/claude-3-5-sonnet");
		expect(readFileSync(path, "utf8")).toBe(
			`${v1Lines()
				.map((l) => JSON.stringify(l))
				.join("\n")}\n`,
		);
	});

	it("v2 file (hookMessage role, a branch, a trailing label): same context as pi", () => {
		const path = writeLines(dir, "v2.jsonl", v2Lines());
		const converted = expectSameContext(path);
		expect(converted.records.some((r) => r.recordType === "custom_message" && r.customType === "hook")).toBe(true);
		expect(converted.records.at(-1)).toMatchObject({ recordType: "label", label: "three" });
	});

	it("pi's buildSessionContext on the raw entries agrees with SessionManager.open (sanity of the oracle)", () => {
		const path = writeCompactedPiSession(dir);
		const entries = linesOf(path)
			.filter((l) => l.trim())
			.map((l) => JSON.parse(l))
			.slice(1);
		expect(normalisePi(buildSessionContext(entries))).toEqual(piContextOf(path));
	});
});

describe("convertPi: what has no equivalent is kept and reported", () => {
	it("an unknown entry type becomes a custom record with a warning naming the line", () => {
		const lines = v2Lines();
		lines.splice(3, 0, { type: "future_thing", id: "f0000001", parentId: "a0000002", timestamp: "t", x: 1 });
		const converted = convertPi(lines.map((l) => JSON.stringify(l)));
		const custom = converted.records.find((r) => r.recordType === "custom" && r.customType === "pi:future_thing");
		expect(custom).toMatchObject({ data: { type: "future_thing", x: 1 } });
		expect(converted.warnings.join("\n")).toMatch(/line 4: an entry of type "future_thing"/);
	});

	it("extension details and fromHook of a compaction are kept in the chain after it, without a branch or a warning; the context is still pi's", () => {
		const sm = SessionManager.create("/w", dir);
		const kept = sm.appendMessage(user("keep me"));
		sm.appendMessage(assistant([{ type: "text", text: "ok" }]));
		sm.appendCompaction("by an extension", kept, 5, { readFiles: ["r"], modifiedFiles: [], artifacts: [1, 2] }, true);
		sm.appendMessage(user("after"));
		const converted = expectSameContext(sm.getSessionFile() as string);
		const extras = converted.records.find((r) => r.recordType === "custom" && r.customType === "pi:compaction-extras");
		expect(extras).toMatchObject({ data: { fromHook: true, details: { artifacts: [1, 2] } } });
		expect(converted.records.find((r) => r.recordType === "compaction")).toMatchObject({ readFiles: ["r"] });
		expect(converted.warnings.join("\n")).not.toMatch(/fromHook/);
		const extrasSeq = converted.records.indexOf(extras as (typeof converted.records)[number]) + 1;
		const after = converted.records[extrasSeq];
		expect(after).toMatchObject({ role: "user", content: [{ text: "after" }] });
		expect(after?.parentSeq ?? extrasSeq).toBe(extrasSeq);
	});

	it("an orphan entry becomes a root, a torn last line is reported, fields without equivalent are named", () => {
		const lines = v2Lines().map((l) => JSON.stringify(l));
		const orphan = {
			type: "message",
			id: "b1",
			parentId: "nope",
			timestamp: "t",
			message: { role: "user", content: "x", timestamp: 1, extra: 1 },
		};
		lines.push(JSON.stringify(orphan), '{"type":"mess');
		const converted = convertPi(lines);
		const text = converted.warnings.join("\n");
		expect(text).toMatch(/line 9: an entry whose parent is not in the file/);
		expect(text).toMatch(/line 10: the last line is incomplete/);
		expect(text).toMatch(/not kept: extra/);
		expect(converted.records.at(-1)).toMatchObject({ parentSeq: 1 });
	});

	it("a file that is not a pi session is refused with the file and line", () => {
		expect(() => convertPi(['{"role":"user","content":"hi"}'], { sourcePath: "/x/s.jsonl" })).toThrow(
			/@agent\/interop: \/x\/s.jsonl line 1: is not a pi session header.*--from auto/,
		);
	});
});
