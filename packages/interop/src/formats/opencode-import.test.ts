import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFileStore } from "@agent/session-fs";
import { Database } from "node-sqlite3-wasm";
import { describe, expect, it } from "vitest";
import { detectFormat } from "../detect-format.js";
import { importPaths } from "../import/import-paths.js";
import { contextJson, SHAPE_FIXTURES } from "../testing/real-fixtures.js";
import { briefMessage, ourContext } from "../testing/test-context.js";
import { useTempDir } from "../testing/test-dir.js";
import { writeOpenCodeDb } from "../testing/test-opencode-db.js";
import {
	convertOpenCode,
	convertOpenCodeSession,
	type OpenCodeSession,
	parseOpenCodeExport,
} from "./opencode-import.js";

const DIR = join(SHAPE_FIXTURES, "opencode", "opencode-1.4");
const ROOT = "ses_0a1b2c3d4ffeQ8rT2vW6yZ1nPk";
const CHILD = "ses_0a1b2c3e5ffeM3kL7pX9sD2fGh";
const linesOf = (id: string) => readFileSync(join(DIR, `${id}.json`), "utf8").split("\n");
const sessionOf = (id: string) => parseOpenCodeExport(linesOf(id)) as OpenCodeSession;

let root: string;
useTempDir("interop-opencode-", (path) => {
	root = path;
});

describe("OpenCode: `opencode export` JSON (1.2 to 1.4)", () => {
	const converted = convertOpenCode(linesOf(ROOT), { sourcePath: join(DIR, `${ROOT}.json`) });
	const records = converted.records;

	it("is detected from the content, keyed by the session id, named by its title, with its model and directory", () => {
		expect(detectFormat(linesOf(ROOT))).toBe("opencode");
		expect(converted).toMatchObject({
			format: "opencode",
			sourceId: ROOT,
			name: "Speed up the image resize",
			model: "anthropic/claude-sonnet-4-6",
			cwd: "/home/dev/photos",
		});
	});

	it("one assistant message per step, each followed by its tools' results; reasoning, images and failed tools kept", () => {
		const before = ourContext(
			records.slice(
				0,
				records.findIndex((r) => r.recordType === "compaction"),
			),
		);
		expect(before.messages.map(briefMessage)).toEqual([
			"user: Resizing is slow, see the profile:",
			"assistant: thinking",
			"toolResult: resize() in src/image.ts calls sharp once per size.",
			"assistant: resize() in src/image.ts creates one sharp pipeline per size.",
			"toolResult: 1: export async function resize(file, sizes) {",
			"toolResult: npm ERR! missing script: bench",
			"assistant: One decoded pipeline cloned per size will be faster.",
			"user: Do it.",
			"assistant: call edit",
			"toolResult: Edit applied successfully.",
			"assistant: Done: one decode, a clone per size.",
		]);
		expect(before.messages[0]?.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
		expect(before.messages[1]?.content[0]).toEqual({
			type: "thinking",
			thinking: "Find where resizing happens first.",
			thinkingSignature: "EqQBCkYIBxgC-sig-1",
		});
		expect(before.messages[5]).toMatchObject({ isError: true, toolName: "bash" });
		expect(before.messages[1]).toMatchObject({
			usage: { input: 1200, output: 110, cacheRead: 18000, cacheWrite: 300 },
		});
	});

	it("a compaction (a compaction request answered by a summary) is our compaction; the context is the summary and what follows", () => {
		expect(ourContext(records).messages.map(briefMessage)).toEqual([
			"user(compaction_summary): The conversation history before this point was compacted into the following summary:",
			"user: Add the bench script.",
			"assistant: call write",
			"toolResult: [Tool execution was interrupted]",
		]);
		expect(ourContext(records).compaction?.summary).toBe(
			"We made resize() decode once and clone per size; the benchmark script is missing.",
		);
		expect(
			records.find((r) => r.recordType === "message" && r.role === "assistant" && r.stopReason === "aborted"),
		).toBeTruthy();
	});

	it("a compaction with tail_start_id keeps the messages from that one on", () => {
		const session = sessionOf(ROOT);
		const tail = session.messages.find((m) => m.parts.some((p) => p.text === "Do it."))?.info.id;
		const request = session.messages.find((m) => m.parts.some((p) => p.type === "compaction"));
		(request?.parts[0] as Record<string, unknown>).tail_start_id = tail;
		expect(ourContext(convertOpenCodeSession(session).records).messages.map(briefMessage).slice(0, 5)).toEqual([
			"user(compaction_summary): The conversation history before this point was compacted into the following summary:",
			"user: Do it.",
			"assistant: call edit",
			"toolResult: Edit applied successfully.",
			"assistant: Done: one decode, a clone per size.",
		]);
	});

	it("a reverted session's active path ends before the reverted message; the rest stays in the session", () => {
		const session = sessionOf(ROOT);
		const reverted = session.messages.find((m) => m.parts.some((p) => p.text === "Do it."))?.info.id;
		session.info.revert = { messageID: reverted, snapshot: "4f1c0a9e" };
		const messages = ourContext(convertOpenCodeSession(session).records).messages.map(briefMessage);
		expect(messages.at(-1)).toBe("assistant: One decoded pipeline cloned per size will be faster.");
		expect(messages).not.toContain("user: Do it.");
	});
});

describe("OpenCode: the SQLite database (opencode.db, 1.1 and later)", () => {
	/** Every file under `dir` with its size and time: an import must change none and add none. */
	const fingerprint = (dir: string) =>
		readdirSync(dir, { recursive: true }).map((name) => {
			const info = statSync(join(dir, String(name)));
			return `${name}:${info.size}:${info.mtimeMs}`;
		});

	it("`import ~/.local/share/opencode` finds the database and imports each session, the same as its export, sub-agents linked", async () => {
		const data = join(root, "share", "opencode");
		mkdirSync(join(data, "storage"), { recursive: true });
		writeOpenCodeDb(join(data, "opencode.db"), [sessionOf(ROOT), sessionOf(CHILD)]);
		const before = fingerprint(data);
		const store = createFileStore({ home: join(root, "home") });
		const results = await importPaths(store, [data]);
		expect(fingerprint(data)).toEqual(before);
		expect(results.map((r) => [r.status, r.format, r.sourceId])).toEqual([
			["imported", "opencode", ROOT],
			["imported", "opencode", CHILD],
		]);
		expect(results[1]?.linked).toEqual([results[0]?.id]);
		for (const [index, id] of [ROOT, CHILD].entries()) {
			const fromExport = ourContext(convertOpenCodeSession(sessionOf(id)).records);
			expect(contextJson((await store.open(results[index]?.id as string)).context)).toBe(contextJson(fromExport));
		}
	});

	it("what OpenCode committed to its write-ahead log and not yet to the database is imported too", async () => {
		const dir = join(root, "wal");
		mkdirSync(dir);
		writeOpenCodeDb(join(dir, "opencode.db"), [sessionOf(CHILD)], { walOnly: true });
		expect(existsSync(join(dir, "opencode.db-wal"))).toBe(true);
		const results = await importPaths(createFileStore({ home: join(root, "home-wal") }), [join(dir, "opencode.db")]);
		expect(results.map((r) => [r.status, r.sourceId])).toEqual([["imported", CHILD]]);
		expect(readdirSync(dir).sort()).toEqual(["opencode.db", "opencode.db-wal"]);
	});

	it("a database that grew (a session got messages, a new session came) re-imports to what a fresh import gives", async () => {
		const dir = join(root, "grow");
		mkdirSync(dir);
		const whole = sessionOf(ROOT);
		const cut = { ...whole, messages: whole.messages.slice(0, 3) };
		writeOpenCodeDb(join(dir, "opencode.db"), [cut]);
		const store = createFileStore({ home: join(root, "home-grow") });
		const [first] = await importPaths(store, [dir]);
		writeOpenCodeDb(join(dir, "opencode.db"), [whole, sessionOf(CHILD)]);
		const again = await importPaths(store, [dir]);
		expect(again.map((r) => r.status)).toEqual(["appended", "imported"]);
		expect(again[0]?.id).toBe(first?.id);
		expect(contextJson((await store.open(first?.id as string)).context)).toBe(
			contextJson(ourContext(convertOpenCodeSession(whole).records)),
		);
	});

	it("an SQLite file that is not OpenCode's fails when named, saying what to import instead", async () => {
		const dir = join(root, "other");
		mkdirSync(dir);
		const empty = join(dir, "empty.db");
		writeFileSync(empty, "SQLite format 3\u0000");
		const notes = join(dir, "opencode-notes.db");
		const db = new Database(notes);
		db.exec("CREATE TABLE notes (id integer PRIMARY KEY, text text)");
		db.close();
		const store = createFileStore({ home: join(root, "home-other") });
		const results = await importPaths(store, [empty, notes]);
		expect(results.map((r) => r.status)).toEqual(["failed", "failed"]);
		expect(results[0]?.error).toMatch(/@agent\/interop: .*empty.db: cannot be read as an SQLite database/);
		expect(results[1]?.error).toMatch(
			/opencode-notes.db: is an SQLite database without OpenCode's session, message and part tables/,
		);
		const scanned = await importPaths(store, [dir]);
		expect(scanned.map((r) => [r.status, r.source.split("/").pop()])).toEqual([["skipped", "opencode-notes.db"]]);
	});
});
