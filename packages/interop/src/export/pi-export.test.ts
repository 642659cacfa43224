import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RecordInput } from "@agent/session-format";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { convertSession } from "../convert.js";
import { convertPi } from "../formats/pi-import.js";
import { realFixtures } from "../testing/real-fixtures.js";
import { collect } from "../testing/test-collect.js";
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
import type { ConvertOptions } from "../types.js";
import { piExportLines, piSessionIdOf } from "./pi-export.js";
import { recordsFrom } from "./record-source.js";

let dir: string;
useTempDir("interop-pi-export-", (path) => {
	dir = path;
});

const INFO = { id: "01JMRZ8X1Q9V5E2H3K4M6N7P8R", createdAt: "2026-01-01T00:00:00.000Z" };

async function exportToPiFile(inputs: readonly RecordInput[], leafSeq?: number): Promise<string> {
	const text = await collect(
		piExportLines(recordsFrom(storedRecords(inputs)), { ...INFO, leafSeq }, { piSessionId: "exported" }),
	);
	const path = join(dir, `exported-${Math.random()}.jsonl`);
	writeFileSync(path, text);
	return path;
}

function piContextOf(path: string) {
	const copy = join(dir, `open-${Math.random()}.jsonl`);
	copyFileSync(path, copy);
	return normalisePi(SessionManager.open(copy, dir).buildSessionContext());
}

describe("pi → ours → pi: pi opens the exported file with the same context", () => {
	const cases: Array<[string, () => string]> = [
		["linear", () => writeLinearPiSession(dir)],
		["branched", () => writeBranchedPiSession(dir)],
		["compacted", () => writeCompactedPiSession(dir)],
		["v1", () => writeLines(dir, "v1.jsonl", v1Lines())],
		["v2", () => writeLines(dir, "v2.jsonl", v2Lines())],
	];
	for (const [name, write] of cases) {
		it(`${name} session`, async () => {
			const original = write();
			const converted = convertPi(readFileSync(original, "utf8").split("\n"));
			const exported = await exportToPiFile(converted.records);
			const before = piContextOf(original);
			expect(before.messages.length).toBeGreaterThan(0);
			expect(piContextOf(exported)).toEqual(before);
			// and back again: importing the exported file gives our context once more
			const again = convertPi(readFileSync(exported, "utf8").split("\n"));
			expect(normaliseOurs(ourContext(again.records))).toEqual(normaliseOurs(ourContext(converted.records)));
		});
	}

	it("keeps the header's cwd, entry types (a custom-role message becomes a custom_message entry), labels and the bashExecution messages as pi wrote them", async () => {
		const original = writeLinearPiSession(dir);
		const converted = convertPi(readFileSync(original, "utf8").split("\n"));
		const exported = await exportToPiFile(converted.records);
		const sm = SessionManager.open(exported, dir);
		expect(sm.getHeader()).toMatchObject({ version: 3, id: "exported", cwd: "/work/project" });
		expect(sm.getSessionName()).toBe("File listing");
		const entries = sm.getEntries();
		const originalEntries = SessionManager.open(original, dir).getEntries();
		// a message entry with role "custom" is a custom_message of ours, and goes back as that entry type
		const expectedTypes = originalEntries.map((e) =>
			e.type === "message" && e.message.role === "custom" ? "custom_message" : e.type,
		);
		expect(entries.map((e) => e.type)).toEqual(expectedTypes);
		const bash = entries.filter((e) => e.type === "message" && e.message.role === "bashExecution");
		expect(bash).toHaveLength(3);
		const labelled = entries.find((e) => sm.getLabel(e.id) === "start");
		expect(labelled).toMatchObject({ type: "message", message: { role: "user" } });
	});
});

describe("pi entries kept as custom records go back to pi as they were", () => {
	it("an unknown entry type and an excluded bashExecution are written back as pi entries", async () => {
		const lines = v2Lines();
		lines.push(
			{ type: "future_thing", id: "f0000001", parentId: "a0000007", timestamp: "2025-06-01T10:00:00.000Z", x: 1 },
			{
				type: "message",
				id: "f0000002",
				parentId: "f0000001",
				timestamp: "2025-06-01T10:00:00.000Z",
				message: {
					role: "bashExecution",
					command: "ls",
					output: "x",
					exitCode: 0,
					cancelled: false,
					truncated: false,
					excludeFromContext: true,
					timestamp: 1,
				},
			},
		);
		const converted = convertPi(lines.map((l) => JSON.stringify(l)));
		const exported = await exportToPiFile(converted.records);
		const entries = SessionManager.open(exported, dir).getEntries();
		expect(entries.at(-2)).toMatchObject({ type: "future_thing", x: 1 });
		expect(entries.at(-1)).toMatchObject({
			type: "message",
			message: { role: "bashExecution", excludeFromContext: true },
		});
		expect(piContextOf(exported)).toEqual(piContextOf(writeLines(dir, "orig.jsonl", lines)));
	});
});

describe("ours → pi", () => {
	it("a compaction's extension details and fromHook go back into the pi entry (pi → ours → pi)", async () => {
		const sm = SessionManager.create("/w", dir);
		const kept = sm.appendMessage(user("keep me"));
		sm.appendMessage(assistant([{ type: "text", text: "ok" }]));
		sm.appendCompaction("by an extension", kept, 5, { readFiles: ["r"], modifiedFiles: [], artifacts: [1, 2] }, true);
		sm.appendMessage(user("after"));
		const converted = convertPi(readFileSync(sm.getSessionFile() as string, "utf8").split("\n"));
		const exported = SessionManager.open(await exportToPiFile(converted.records), dir).getEntries();
		const compaction = exported.find((entry) => entry.type === "compaction");
		expect(compaction).toMatchObject({
			fromHook: true,
			details: { readFiles: ["r"], modifiedFiles: [], artifacts: [1, 2] },
		});
		expect(exported.some((entry) => entry.type === "custom")).toBe(false);
		expect(exported.at(-1)).toMatchObject({ type: "message", parentId: compaction?.id });
	});

	it("every export of a session carries the same pi session id, a UUID of its own per session", async () => {
		const inputs: RecordInput[] = [{ recordType: "message", role: "user", content: [{ type: "text", text: "Q" }] }];
		const header = async (id: string) => {
			const text = await collect(piExportLines(recordsFrom(storedRecords(inputs)), { ...INFO, id }));
			return JSON.parse(text.split("\n")[0] as string).id as string;
		};
		const first = await header(INFO.id);
		expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(await header(INFO.id)).toBe(first);
		expect(first).toBe(piSessionIdOf(INFO.id));
		expect(await header("01JMRZ8X1Q9V5E2H3K4M6N7P8S")).not.toBe(first);
	});

	it('an answer whose model the import did not know is exported with the session\'s model, never "undefined"', async () => {
		const inputs: RecordInput[] = [
			{ recordType: "message", role: "user", content: [{ type: "text", text: "Q" }] },
			{ recordType: "message", role: "assistant", content: [{ type: "text", text: "A" }], provider: "openai" },
		];
		const write = async (model?: string) => {
			const text = await collect(
				piExportLines(recordsFrom(storedRecords(inputs)), { ...INFO, ...(model ? { model } : {}) }),
			);
			const path = join(dir, `model-${Math.random()}.jsonl`);
			writeFileSync(path, text);
			return SessionManager.open(path, dir).buildSessionContext().model;
		};
		expect(await write("openai/gpt-5")).toEqual({ provider: "openai", modelId: "gpt-5" });
		expect(await write()).toEqual({ provider: "openai", modelId: "unknown" });
	});

	it("a branch moved to an earlier record (metadata.leafSeq) stays the active leaf in pi", async () => {
		const inputs: RecordInput[] = [
			{ recordType: "message", role: "user", content: [{ type: "text", text: "Q" }] },
			{ recordType: "message", role: "assistant", content: [{ type: "text", text: "A1" }], provider: "p", model: "m" },
			{ recordType: "message", role: "user", content: [{ type: "text", text: "Q2" }] },
		];
		const path = await exportToPiFile(inputs, 2);
		const pi = piContextOf(path);
		expect(firstTexts(pi)).toEqual(["Q", "A1"]);
	});

	it("a compaction and records pi has no type for (opaque) keep pi's context equal to ours", async () => {
		const inputs: RecordInput[] = [
			{ recordType: "message", role: "user", content: [{ type: "text", text: "old" }] },
			{
				recordType: "message",
				role: "assistant",
				content: [{ type: "text", text: "old answer" }],
				provider: "p",
				model: "m",
			},
			{ recordType: "message", role: "user", content: [{ type: "text", text: "kept" }] },
			{ recordType: "custom", customType: "codex:ghost_snapshot", data: { x: 1 } },
			{
				recordType: "compaction",
				summary: "old stuff",
				firstKeptSeq: 3,
				tokensBefore: 10,
				readFiles: [],
				modifiedFiles: [],
			},
			{ recordType: "message", role: "assistant", content: [{ type: "text", text: "new" }], provider: "p", model: "m" },
		];
		const path = await exportToPiFile(inputs);
		expect(piContextOf(path)).toEqual(normaliseOurs(ourContext(inputs)));
	});
});

describe("other formats → ours → pi: pi builds the same context as ours", () => {
	const fixtures = fileURLToPath(new URL("../../test/fixtures/", import.meta.url));
	const cases: Array<[string, string, ConvertOptions]> = [
		["codex", "codex/rollout-2025-09-01T10-00-00-5f1c2a3b-0000-4000-8000-00000000c0de.jsonl", {}],
		["claude", "claude/7c0e1d2f-3333-4c4c-9d9d-00000000c1a0.jsonl", {}],
		["rfc0064", "rfc0064/sessions/crab_user_3.jsonl", {}],
		["fern", "fern/sessions/telegram_12345_user_67890/session.jsonl", {}],
	];
	for (const [name, file, options] of cases) {
		it(name, async () => {
			const converted = convertSession(readFileSync(join(fixtures, file), "utf8").split("\n"), {
				...options,
				sourcePath: join(fixtures, file),
			});
			const path = await exportToPiFile(converted.records);
			const ours = normaliseOurs(ourContext(converted.records));
			expect(ours.messages.length).toBeGreaterThan(1);
			expect(piContextOf(path).messages).toEqual(ours.messages);
		});
	}

	for (const fixture of [...realFixtures("codex"), ...realFixtures("claude")]) {
		it(`real file ${fixture.name}: pi's context equals ours, every tool result named`, async () => {
			const converted = convertSession(fixture.lines, { sourcePath: fixture.path });
			const path = await exportToPiFile(converted.records);
			const pi = piContextOf(path);
			expect(pi.messages).toEqual(normaliseOurs(ourContext(converted.records)).messages);
			const entries = SessionManager.open(path, dir).getEntries();
			for (const entry of entries) {
				if (entry.type === "message" && entry.message.role === "toolResult")
					expect(entry.message.toolName).not.toBe("");
			}
			expect(pi.model?.modelId).not.toBe("undefined");
		});
	}

	it("real Gemini CLI chat: pi's context equals ours", async () => {
		const file = join(
			fileURLToPath(new URL("../../fixtures/gemini/", import.meta.url)),
			"session-2025-10-18T14-57-f86f5318.json",
		);
		const converted = convertSession(readFileSync(file, "utf8").split("\n"), { sourcePath: file });
		const path = await exportToPiFile(converted.records);
		expect(piContextOf(path).messages).toEqual(normaliseOurs(ourContext(converted.records)).messages);
	});

	it("the pi header takes the cwd an import kept", async () => {
		const file = join(fixtures, "codex/rollout-2025-09-01T10-00-00-5f1c2a3b-0000-4000-8000-00000000c0de.jsonl");
		const converted = convertSession(readFileSync(file, "utf8").split("\n"));
		const path = await exportToPiFile(converted.records);
		expect(SessionManager.open(path, dir).getHeader()?.cwd).toBe("/home/dev/app");
	});
});
