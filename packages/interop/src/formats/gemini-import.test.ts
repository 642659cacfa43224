import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFileStore } from "@agent/session-fs";
import { describe, expect, it } from "vitest";
import { detectFormat } from "../detect-format.js";
import { importPaths } from "../import/import-paths.js";
import { contextJson, REAL_FIXTURES, type RealFixture, shapeFixtures } from "../testing/real-fixtures.js";
import { ourContext } from "../testing/test-context.js";
import { useTempDir } from "../testing/test-dir.js";
import { convertGemini } from "./gemini-import.js";

const NAME = "session-2025-10-18T14-57-f86f5318.json";
const FIXTURE = join(REAL_FIXTURES, "gemini", NAME);
const lines = readFileSync(FIXTURE, "utf8").split("\n");

let root: string;
useTempDir("interop-gemini-", (path) => {
	root = path;
});

describe("convertGemini", () => {
	const converted = convertGemini(lines, { sourcePath: FIXTURE });
	const context = ourContext(converted.records);

	it("is detected from the content, keyed by its sessionId, named by its first prompt", () => {
		expect(detectFormat(lines)).toBe("gemini");
		expect(converted).toMatchObject({
			format: "gemini",
			sourceId: "f86f5318-f47b-4433-85f8-ec9d9a417f8e",
			createdAt: "2025-10-18T14:57:28.974Z",
			name: "List the files in the current directory",
			model: "google/gemini-2.5-pro",
		});
	});

	it("thoughts, text and tool calls become one assistant message; each result a named tool result after it", () => {
		expect(context.messages.map((m) => m.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"assistant",
			"user",
			"assistant",
			"toolResult",
			"assistant",
			"toolResult",
		]);
		expect(context.messages[1]).toMatchObject({
			content: [
				{ type: "thinking", thinking: expect.stringContaining("Analyzing Directory Structure") },
				{ type: "toolCall", id: "list_directory-1760799451650-5979488a89c64", name: "list_directory" },
			],
			usage: { input: 8396, output: 44, cacheRead: 0, totalTokens: 8440 },
			stopReason: "toolUse",
		});
		expect(context.messages[2]).toMatchObject({
			toolCallId: "list_directory-1760799451650-5979488a89c64",
			toolName: "list_directory",
			isError: false,
			content: [{ type: "text", text: expect.stringContaining("[DIR] src") }],
		});
		expect(context.messages[8]?.content).toHaveLength(3);
	});

	it("a chat that grew (more messages, a message given its results) re-imports to what a fresh import gives", async () => {
		const chat = JSON.parse(readFileSync(FIXTURE, "utf8")) as { messages: unknown[] };
		const fresh = createFileStore({ home: join(root, "fresh") });
		const dir = join(root, "chats");
		mkdirSync(dir);
		const path = join(dir, NAME);
		writeFileSync(path, JSON.stringify(chat, null, 2));
		const [whole] = await importPaths(fresh, [path]);
		const expected = contextJson((await fresh.open(whole?.id as string)).context);
		for (let count = 1; count < chat.messages.length; count++) {
			const store = createFileStore({ home: join(root, `cut-${count}`) });
			writeFileSync(path, JSON.stringify({ ...chat, messages: chat.messages.slice(0, count) }, null, 2));
			await importPaths(store, [path]);
			writeFileSync(path, JSON.stringify(chat, null, 2));
			const [again] = await importPaths(store, [path]);
			expect(contextJson((await store.open(again?.id as string)).context), `cut after ${count} messages`).toBe(
				expected,
			);
		}
	});

	it("a directory scan picks up chats (session-*.json) and leaves other JSON files alone", async () => {
		const dir = join(root, "tmp", "abc", "chats");
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, NAME), readFileSync(FIXTURE));
		writeFileSync(join(root, "tmp", "settings.json"), "{}");
		const results = await importPaths(createFileStore({ home: join(root, "home") }), [join(root, "tmp")]);
		expect(results.map((r) => [r.status, r.format])).toEqual([["imported", "gemini"]]);
	});
});

describe("convertGemini: the JSON-lines chat (Gemini CLI 0.39 and later)", () => {
	const [main, sub] = (() => {
		const all = shapeFixtures("gemini");
		return [all.find((f) => f.name.includes("session-")), all.find((f) => !f.name.includes("session-"))];
	})() as [RealFixture, RealFixture];
	const converted = convertGemini(main.lines, { sourcePath: main.path });
	const context = ourContext(converted.records);

	it("is detected from its header line and keyed by its sessionId; $set patches apply in order (the summary names it)", () => {
		expect(detectFormat(main.lines)).toBe("gemini");
		expect(converted).toMatchObject({
			format: "gemini",
			sourceId: "4b2e91c0-7d1a-4c3e-8f52-0a6b3d9e0539",
			name: "Fix the TypeScript build error",
			model: "google/gemini-3-pro",
		});
	});

	it("a message written again under its id updates it (its tokens, its tool call's result); a rewind drops what follows it", () => {
		expect(context.messages.map((m) => m.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"assistant",
			"user",
			"assistant",
		]);
		expect(context.messages[1]).toMatchObject({
			usage: { totalTokens: 9222 },
			content: [{ type: "thinking" }, { type: "toolCall" }],
		});
		expect(context.messages[2]?.content).toEqual([
			{ type: "text", text: "src/index.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'." },
		]);
		expect(context.messages[4]?.content).toEqual([{ type: "text", text: "Fix it by changing the type to string." }]);
		const rewound = converted.records.filter(
			(r) =>
				r.recordType === "message" && r.content[0]?.type === "text" && r.content[0].text.includes("parsing the string"),
		);
		expect(rewound).toHaveLength(1);
	});

	it("a sub-agent's chat (chats/<parent id>/<id>.jsonl, kind subagent) names the session that spawned it", () => {
		expect(convertGemini(sub.lines, { sourcePath: sub.path })).toMatchObject({
			sourceId: "e81f04a2-3b9c-4d7e-a615-2c8f5b1d0539",
			parentSourceId: "4b2e91c0-7d1a-4c3e-8f52-0a6b3d9e0539",
		});
	});

	it("a chat migrated from JSON to JSON lines is imported once: a directory scan skips session-*.json beside its .jsonl", async () => {
		const dir = join(root, "migrated", "chats");
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, NAME), readFileSync(FIXTURE));
		writeFileSync(join(dir, `${NAME}l`), readFileSync(main.path));
		const results = await importPaths(createFileStore({ home: join(root, "home-migrated") }), [join(root, "migrated")]);
		expect(results.map((r) => r.source.split("/").pop())).toEqual([`${NAME}l`]);
	});
});
