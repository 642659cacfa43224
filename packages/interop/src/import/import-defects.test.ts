import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFileStore } from "@agent/session-fs";
import { describe, expect, it } from "vitest";
import { REAL_FIXTURES } from "../testing/real-fixtures.js";
import { useTempDir } from "../testing/test-dir.js";
import { importPaths } from "./import-paths.js";
import { CORRECTION_TYPE, SUBAGENT_OF_TYPE, SUBAGENT_TYPE } from "./stored-import.js";

let root: string;
let store: ReturnType<typeof createFileStore>;
useTempDir("interop-defects-", (path) => {
	root = path;
	store = createFileStore({ home: join(path, "home") });
});

const PARENT = "e9fb405b-169f-40eb-9396-7e75076f045d";

async function allSessions() {
	return (await store.list({ archived: true, limit: 1000 })).sessions;
}

async function recordsOf(id: string) {
	const out = [];
	for await (const record of store.read(id)) out.push(record);
	return out;
}

describe("files named on the command line", () => {
	it("garbage, empty or undetectable named files fail (exit 1 in the CLI), each saying why once; in a directory scan they are skipped", async () => {
		const dir = join(root, "named");
		mkdirSync(dir);
		writeFileSync(join(dir, "garbage.jsonl"), "this is not json\n");
		writeFileSync(join(dir, "empty.jsonl"), "");
		writeFileSync(join(dir, "other.jsonl"), '{"hello":"world"}\n');
		const named = await importPaths(
			store,
			["garbage.jsonl", "empty.jsonl", "other.jsonl"].map((n) => join(dir, n)),
		);
		expect(named.map((r) => r.status)).toEqual(["failed", "failed", "failed"]);
		for (const result of named) {
			expect(result.error).toMatch(/garbage|empty|other/);
			expect(result.warnings).not.toContain(result.error);
		}
		expect(named[1]?.error).toMatch(/is empty/);
		const scanned = await importPaths(store, [dir]);
		expect(scanned.map((r) => r.status)).toEqual(["skipped", "skipped", "skipped"]);
		expect(await allSessions()).toEqual([]);
	});

	it("a byte order mark before the first line is stripped, not fatal", async () => {
		const path = join(root, "bom.jsonl");
		const text = readFileSync(join(REAL_FIXTURES, "claude/agent-history-sdk-2.1.152.jsonl"), "utf8");
		writeFileSync(path, `\uFEFF${text}`);
		const [result] = await importPaths(store, [path]);
		expect(result).toMatchObject({ status: "imported", format: "claude" });
	});

	it("an import is all or nothing: a file converting to a record the store refuses leaves no session behind", async () => {
		const path = join(root, "long-name.jsonl");
		const lines = readFileSync(join(REAL_FIXTURES, "claude/claude-code-viewer-1.0.98.jsonl"), "utf8").split("\n");
		writeFileSync(path, lines.map((line) => line.replace('"name":"Glob"', `"name":"${"G".repeat(300)}"`)).join("\n"));
		const [result] = await importPaths(store, [path]);
		expect(result).toMatchObject({ status: "failed", id: "" });
		expect(result?.error).toMatch(/tool call whose id or name is longer than|name is \d+ characters long/);
		expect(await allSessions()).toEqual([]);
	});

	it("a Claude file with an empty tool id imports (the block is kept aside), and nothing half-made is left", async () => {
		const path = join(root, "empty-id.jsonl");
		const lines = readFileSync(join(REAL_FIXTURES, "claude/claude-code-viewer-1.0.98.jsonl"), "utf8").split("\n");
		writeFileSync(path, lines.map((line) => line.replaceAll("toolu_019okXfjnUzJkV2VZbndx6ik", "")).join("\n"));
		const [result] = await importPaths(store, [path]);
		expect(result?.status).toBe("imported");
		const context = (await store.open(result?.id as string)).context;
		expect(context.messages.every((m) => m.role !== "toolResult" || (m.toolCallId && m.toolName))).toBe(true);
		expect(await allSessions()).toHaveLength(1);
	});
});

describe("Claude Code sub-agents", () => {
	it("a sub-agent imported with the session that spawned it: each session has a link record naming the other, once", async () => {
		const dir = join(root, "project");
		cpSync(join(REAL_FIXTURES, "claude/subagents"), dir, { recursive: true });
		const results = await importPaths(store, [dir]);
		const parent = results.find((r) => r.sourceId === PARENT);
		const child = results.find((r) => r.sourceId === `${PARENT}/agent-a485154`);
		expect(parent?.linked).toEqual([child?.id]);
		expect(child?.linked).toEqual([parent?.id]);
		const linksIn = async (id: string, type: string) =>
			(await recordsOf(id)).filter((r) => r.recordType === "custom" && r.customType === type);
		expect(
			(await linksIn(child?.id as string, SUBAGENT_OF_TYPE)).map((r) => r.recordType === "custom" && r.data),
		).toEqual([{ sessionId: parent?.id, sourceId: PARENT }]);
		expect(
			(await linksIn(parent?.id as string, SUBAGENT_TYPE)).map((r) => r.recordType === "custom" && r.data),
		).toEqual([{ sessionId: child?.id, sourceId: `${PARENT}/agent-a485154` }]);
		// Again: nothing new, the context is unchanged by the links.
		const before = (await store.open(parent?.id as string)).context.messages.length;
		const again = await importPaths(store, [dir]);
		expect(again.map((r) => r.status)).toEqual(["unchanged", "unchanged"]);
		expect(await linksIn(parent?.id as string, SUBAGENT_TYPE)).toHaveLength(1);
		expect((await store.open(parent?.id as string)).context.messages).toHaveLength(before);
	});
});

describe("a source that grew where a merged record changed", () => {
	it("the correction is a branch from the changed record's parent: the old part stays as a side branch, the context shows each message once", async () => {
		const fixture = join(REAL_FIXTURES, "claude/subagents", PARENT, "subagents/agent-a485154.jsonl");
		const lines = readFileSync(fixture, "utf8").trimEnd().split("\n");
		const path = join(root, "agent-a485154.jsonl");
		// Cut after the third line: the response (one message.id over lines 2..6) was read half way.
		writeFileSync(path, `${lines.slice(0, 3).join("\n")}\n`);
		const [first] = await importPaths(store, [path]);
		const id = first?.id as string;
		writeFileSync(path, `${lines.join("\n")}\n`);
		const [second] = await importPaths(store, [path]);
		expect(second).toMatchObject({ id, status: "appended" });
		const records = await recordsOf(id);
		const correction = records.find((r) => r.recordType === "custom" && r.customType === CORRECTION_TYPE);
		expect(correction).toMatchObject({ data: { fromRecord: 3 } });
		const { context, metadata } = await store.open(id);
		expect(context.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
		const assistant = context.messages[1];
		expect(assistant?.content.filter((b) => b.type === "toolCall")).toHaveLength(4);
		expect(metadata.leafSeq ?? metadata.lastSeq).toBe(records.at(-1)?.seq);
		// Importing once more changes nothing.
		const [third] = await importPaths(store, [path]);
		expect(third?.status).toBe("unchanged");
	});
});
