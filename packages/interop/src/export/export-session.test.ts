import { createWriteStream, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { finished } from "node:stream/promises";
import type { RecordInput } from "@agent/session-format";
import { createFileStore } from "@agent/session-fs";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { importPaths } from "../import/import-paths.js";
import { collect } from "../testing/test-collect.js";
import { normaliseOurs, normalisePi } from "../testing/test-context.js";
import { useTempDir } from "../testing/test-dir.js";
import { writeBranchedPiSession, writeCompactedPiSession, writeLinearPiSession } from "../testing/test-pi-sessions.js";
import { exportSession, writeSessionExport } from "./export-session.js";

let root: string;
let store: ReturnType<typeof createFileStore>;
useTempDir("interop-export-", (path) => {
	root = path;
	store = createFileStore({ home: join(root, "home") });
});

function piContextOf(path: string) {
	return normalisePi(SessionManager.open(path, root).buildSessionContext());
}

describe("exportSession from the file store", () => {
	for (const [name, write] of [
		["linear", writeLinearPiSession],
		["branched", writeBranchedPiSession],
		["compacted", writeCompactedPiSession],
	] as const) {
		it(`pi → import → export pi → pi opens it with the same context (${name})`, async () => {
			const original = write(root);
			const expected = piContextOf(original);
			const [imported] = await importPaths(store, [original]);
			const out = join(root, "exported.jsonl");
			writeFileSync(out, await collect(exportSession(store, imported?.id as string, "pi")));
			expect(piContextOf(out)).toEqual(expected);
			expect(normaliseOurs((await store.open(imported?.id as string)).context)).toEqual(expected);
		});
	}

	it("after a branch moved the leaf in our store, pi's context of the export follows our leaf", async () => {
		const session = await store.create({});
		const text = (t: string) => [{ type: "text" as const, text: t }];
		await store.append(session.id, [
			{ recordType: "message", role: "user", content: text("Q") },
			{ recordType: "message", role: "assistant", content: text("A"), provider: "p", model: "m" },
			{ recordType: "message", role: "user", content: text("later") },
		]);
		await store.branch(session.id, 2);
		const out = join(root, "branch.jsonl");
		writeFileSync(out, await collect(exportSession(store, session.id, "pi")));
		const ours = normaliseOurs((await store.open(session.id)).context);
		expect(ours.messages).toHaveLength(2);
		expect(piContextOf(out)).toEqual(ours);
	});

	it("jsonl is the session log as stored", async () => {
		const [imported] = await importPaths(store, [writeCompactedPiSession(root)]);
		const id = imported?.id as string;
		const jsonl = await collect(exportSession(store, id, "jsonl"));
		expect(jsonl).toBe(readFileSync(store.pathsOf(id).log, "utf8"));
	});

	it("streams a large session in chunks to a stream, waiting for drain", async () => {
		const session = await store.create({ name: "big" });
		const records: RecordInput[] = [];
		for (let i = 0; i < 3000; i++) {
			records.push({
				recordType: "message",
				role: i % 2 ? "assistant" : "user",
				content: [{ type: "text", text: `message ${i} ${"x".repeat(200)}` }],
			});
		}
		for (let i = 0; i < records.length; i += 500) await store.append(session.id, records.slice(i, i + 500));
		for (const format of ["md", "html", "jsonl", "pi"] as const) {
			let chunks = 0;
			let largest = 0;
			let total = 0;
			for await (const chunk of exportSession(store, session.id, format, { piSessionId: "fixed" })) {
				chunks++;
				largest = Math.max(largest, chunk.length);
				total += chunk.length;
			}
			expect(chunks).toBeGreaterThanOrEqual(3000);
			// one record (or the page header) per chunk, never the whole output
			expect(total).toBeGreaterThan(600_000);
			expect(largest).toBeLessThan(4_000);
			const path = join(root, `big.${format}`);
			const stream = createWriteStream(path, { highWaterMark: 1024 });
			await writeSessionExport(store, session.id, format, stream, { piSessionId: "fixed" });
			stream.end();
			await finished(stream);
			expect(readFileSync(path, "utf8").length).toBe(total);
		}
	});

	it("an unknown session or format is an error that says so", async () => {
		await expect(collect(exportSession(store, "01JMRZ8X1Q9V5E2H3K4M6N7P8R", "md"))).rejects.toThrow(/was not found/);
		const session = await store.create({});
		await expect(collect(exportSession(store, session.id, "pdf" as never))).rejects.toThrow(
			/@agent\/interop: unknown export format "pdf"; use one of md, html, jsonl, pi/,
		);
	});
});
