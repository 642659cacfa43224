import { createHash } from "node:crypto";
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFileStore } from "@agent/session-fs";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { convertPi } from "../formats/pi-import.js";
import { normaliseOurs, normalisePi } from "../testing/test-context.js";
import { useTempDir } from "../testing/test-dir.js";
import {
	assistant,
	user,
	v1Lines,
	writeCompactedPiSession,
	writeLinearPiSession,
	writeLines,
} from "../testing/test-pi-sessions.js";
import { importPaths } from "./import-paths.js";

const FIXTURES = fileURLToPath(new URL("../../test/fixtures/", import.meta.url));

let root: string;
let sources: string;
let store: ReturnType<typeof createFileStore>;
useTempDir("interop-import-", (path) => {
	root = path;
	sources = join(root, "sources");
	mkdirSync(sources);
	store = createFileStore({ home: join(root, "home") });
});

function fingerprint(dir: string): Record<string, string> {
	const out: Record<string, string> = {};
	const walk = (d: string) => {
		for (const entry of readdirSync(d, { withFileTypes: true })) {
			const path = join(d, entry.name);
			if (entry.isDirectory()) walk(path);
			else out[path] = `${createHash("sha256").update(readFileSync(path)).digest("hex")}:${statSync(path).mtimeMs}`;
		}
	};
	walk(dir);
	return out;
}

function piContextOf(path: string) {
	const copy = join(root, `pi-open-${Math.random()}.jsonl`);
	copyFileSync(path, copy);
	return normalisePi(SessionManager.open(copy, root).buildSessionContext());
}

async function allSessions() {
	return (await store.list({ archived: true, limit: 1000 })).sessions;
}

describe("importPaths with the file store", () => {
	it("imports a directory of every format; pi sessions open with pi's context", async () => {
		const piDir = join(sources, "pi");
		mkdirSync(piDir);
		const linear = writeLinearPiSession(piDir);
		const compacted = writeCompactedPiSession(piDir);
		const v1 = writeLines(piDir, "v1.jsonl", v1Lines());
		cpSync(FIXTURES, join(sources, "others"), { recursive: true });
		writeFileSync(join(sources, "notes.jsonl"), '{"hello":"world"}\n');
		writeFileSync(join(sources, "README.txt"), "not a session\n");
		const before = fingerprint(sources);
		const progress: Array<[number, number]> = [];

		const results = await importPaths(store, [sources], { onProgress: (done, total) => progress.push([done, total]) });

		expect(fingerprint(sources)).toEqual(before);
		const byStatus = (status: string) => results.filter((r) => r.status === status).map((r) => r.source);
		expect(byStatus("imported")).toHaveLength(17);
		expect(
			byStatus("skipped")
				.map((s) => s.split("/").pop())
				.sort(),
		).toEqual(["notes.jsonl", "tools.jsonl"]);
		expect(byStatus("failed")).toEqual([]);
		expect(progress.at(-1)).toEqual([results.length, results.length]);
		expect(new Set(results.filter((r) => r.id).map((r) => r.format))).toEqual(
			new Set(["pi", "codex", "claude", "gemini", "copilot", "rfc0064", "fern"]),
		);
		for (const path of [linear, compacted, v1]) {
			const result = results.find((r) => r.source === path);
			const opened = await store.open(result?.id as string);
			expect(normaliseOurs(opened.context)).toEqual(piContextOf(path));
			expect(opened.metadata.importedFrom).toEqual({ format: "pi", sourceId: result?.sourceId });
		}
		const linearMeta = await store.metadata(results.find((r) => r.source === linear)?.id as string);
		expect(linearMeta).toMatchObject({ name: "File listing", model: "openai/gpt-5" });
		const rfc = results.find((r) => r.format === "rfc0064");
		expect(await store.metadata(rfc?.id as string)).toMatchObject({
			uptimeSeconds: 321,
			identityKey: "crab/user",
			name: "Trip planning",
		});
	});

	it("is idempotent: the same sources again give the same ids and write nothing", async () => {
		const path = writeCompactedPiSession(sources);
		cpSync(join(FIXTURES, "claude"), join(sources, "claude"), { recursive: true });
		const first = await importPaths(store, [sources]);
		// Archiving writes an archive_change record: the snapshot is taken after it.
		await store.archive(first[0]?.id as string);
		const sessions = await allSessions();
		const second = await importPaths(store, [sources, path]);
		expect(second.map((r) => [r.source, r.id, r.status])).toEqual(first.map((r) => [r.source, r.id, "unchanged"]));
		expect(second.every((r) => r.skipped === true)).toBe(true);
		const after = await allSessions();
		expect(after.map((s) => [s.id, s.lastSeq])).toEqual(sessions.map((s) => [s.id, s.lastSeq]));
	});

	it("a source that grew since its import gets the new records appended, and still opens with pi's context", async () => {
		const sm = SessionManager.create("/w", sources);
		sm.appendMessage(user("one"));
		sm.appendMessage(assistant([{ type: "text", text: "two" }]));
		const path = sm.getSessionFile() as string;
		const [first] = await importPaths(store, [path]);
		sm.appendMessage(user("three"));
		sm.appendMessage(assistant([{ type: "text", text: "four" }]));
		const [second] = await importPaths(store, [path]);
		expect(second).toMatchObject({ id: first?.id, status: "appended" });
		const opened = await store.open(first?.id as string);
		expect(opened.metadata.lastSeq).toBe(second?.records);
		expect(normaliseOurs(opened.context)).toEqual(piContextOf(path));
	});

	it("an import cut off half way is completed on the next run, without duplicates", async () => {
		const path = writeLinearPiSession(sources);
		const converted = convertPi(readFileSync(path, "utf8").split("\n"));
		const partial = await store.create({ importedFrom: { format: "pi", sourceId: converted.sourceId } });
		await store.append(partial.id, converted.records.slice(0, 5));
		const [result] = await importPaths(store, [path]);
		expect(result).toMatchObject({ id: partial.id, status: "appended", records: converted.records.length });
		expect((await store.metadata(partial.id)).lastSeq).toBe(converted.records.length);
		expect(normaliseOurs((await store.open(partial.id)).context)).toEqual(piContextOf(path));
	});

	it("an import continued in our store is left alone when the source changes too, and says why", async () => {
		const sm = SessionManager.create("/w", sources);
		sm.appendMessage(user("one"));
		sm.appendMessage(assistant([{ type: "text", text: "two" }]));
		const path = sm.getSessionFile() as string;
		const [first] = await importPaths(store, [path]);
		await store.append(first?.id as string, [
			{ recordType: "message", role: "user", content: [{ type: "text", text: "ours" }] },
		]);
		sm.appendMessage(user("three"));
		sm.appendMessage(assistant([{ type: "text", text: "four" }]));
		const [second] = await importPaths(store, [path]);
		expect(second).toMatchObject({ id: first?.id, status: "unchanged", skipped: true });
		expect(second?.warnings.join("\n")).toMatch(/differs from this source from its record \d+ on/);
		expect((await store.metadata(first?.id as string)).lastSeq).toBe((first?.records ?? 0) + 1);
	});

	it("--from a format the file is not: the file fails with a message naming it; the others still import", async () => {
		const codex = join(FIXTURES, "codex");
		const [result] = await importPaths(store, [codex], { from: "pi" });
		expect(result).toMatchObject({ status: "failed", id: "", skipped: true });
		expect(result?.error).toMatch(/@agent\/interop: .*rollout-.*\.jsonl line 1: is not a pi session header/);
		expect(await allSessions()).toEqual([]);
	});

	it("a path that does not exist is an error that names it", async () => {
		await expect(importPaths(store, [join(root, "missing")])).rejects.toThrow(
			/@agent\/interop: cannot read .*missing \(ENOENT\)/,
		);
	});
});
